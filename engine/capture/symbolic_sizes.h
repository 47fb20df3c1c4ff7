#pragma once
// Symbolic sizes for the nodes of a dynamic graph. Inputs with symbolic dims (s0, s1, ...)
// get a "shadow" meta tensor whose symbolic dims are shifted by a distinct large offset;
// each op's shape inference then runs on the shadows as well. A dim whose shadow size
// differs from its real size depends on a symbol, and the difference tells which symbol
// and with which coefficient: 2*s0 for a flatten, s0 + 1 for a pad. A result whose sizes
// cannot be computed for other sizes, or that match no form (s0 // 2 of a reshape(-1, 2)),
// raises SymbolicSizesUnsupported: the graph cannot be compiled for every size its guards
// admit, and keeping the example size would compute wrong results for the others.

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/error.h"
#include "graph/graph.h"
#include "ops/op_registry.h"

namespace fusescope {

class SymbolicSizesUnsupported : public Error {
public:
    using Error::Error;
};

// A symbol with its example size (hint) and the offset its shadow sizes add: far from any
// real size, distinct per symbol (shiftFor), so that a size's difference identifies symbols.
struct ShiftedSymbol {
    std::string name;
    int64_t hint = 0;
    int64_t offset = 0;
    bool specialized = false;  // fixed at its hint by a guard
};
int64_t shiftFor(size_t symbolIndex);

// How a size depends on the symbols, found from its value at their hints (`real`) and with
// each shifted by its offset (`shadow`): coefficient*a + constant, or coefficient*a*b.
struct SizeForm {
    int64_t coefficient = 1;
    size_t a = 0;
    std::optional<size_t> b;  // the second factor of a product
    int64_t constant = 0;
};
std::optional<SizeForm> sizeForm(int64_t real, int64_t shadow, const std::vector<ShiftedSymbol>& symbols);

class SymbolicSizes {
public:
    // A placeholder with symbols per dim ("" for static dims) and the real tensor's layout.
    void addInput(Node* placeholder, const Tensor& real);
    // A call node: runs `def`'s inference on shadow arguments and names the symbolic dims
    // of node->meta (SymbolicSizesUnsupported when it can't). Does nothing while the graph
    // has no symbols.
    void addCall(Node* node, const OpDef& def);
    bool active() const { return !hints_.empty(); }
    // Whether `node` is a slice of a static dim up to a SymInt end (table[:n]) whose sizes
    // were followed assuming the end within the dim: the tracer guards that (n <= 16).
    bool assumesEndWithin(const Node* node) const { return node == endWithin_; }
    // `node`, about to be added, slices a static dim up to a SymInt end past it (guarded so):
    // its result is the whole dim for every such end.
    void endPastDim(const Node* node) { endPast_ = node; }
    // The symbol is fixed at its example value (a guard says so): dims that depend on it
    // alone are static from now on.
    void specialize(const std::string& symbol);
    // The symbols addCall unified since the last call, (replaced, kept): a call whose
    // operands' sizes must be equal (x + y.t() with x's dims and y's their own symbols) makes
    // the later symbol the earlier one, as ShapeEnv's replacements do. The tracer guards them.
    std::vector<std::pair<std::string, std::string>> takeUnified() { return std::exchange(unified_, {}); }

private:
    // The expression for a dim (real at the hints, shadow at the shifted sizes), "" for a
    // static one, nullopt when no form matches.
    std::optional<std::string> expressionFor(int64_t real, int64_t shadow) const;
    std::string symbolNames() const;  // "s0, s1"
    void extendSlicedDim(const Node& node, IValueList& args);

    using Symbol = ShiftedSymbol;
    enum class Inferred { Done, Skipped, Failed };
    // Runs the call's inference on the shadows; writes the result's symbols to node->meta
    // unless `dryRun`. Failed: the op rejects the shadow sizes.
    Inferred inferCall(Node* node, const OpDef& def, bool dryRun);
    void shadowInput(Node* placeholder, const Tensor& real);
    const Symbol* symbolNamed(const std::string& name) const;
    // Every shadow again, from the placeholders on; false when a call no longer infers.
    bool replay(bool dryRun);
    // Unifies two symbols of equal example size so that the call infers; false when no pair does.
    bool unifyFor(Node* node, const OpDef& def);
    std::vector<Symbol> hints_;
    std::unordered_map<const Node*, IValue> shadows_;  // a tensor, or a tuple of tensors
    const Node* endWithin_ = nullptr;
    const Node* endPast_ = nullptr;
    std::vector<std::pair<Node*, Tensor>> inputs_;        // in order, to replay
    std::vector<std::pair<Node*, const OpDef*>> calls_;
    std::vector<std::pair<std::string, std::string>> unified_;
    size_t symbolsMade_ = 0;  // each symbol's offset is its own, even after another is unified away
};

}  // namespace fusescope
