#pragma once
// Symbolic sizes for the nodes of a dynamic graph. Inputs with symbolic dims (s0, s1, ...)
// get a "shadow" meta tensor whose symbolic dims are shifted by a distinct large offset;
// each op's shape inference then runs on the shadows as well. A dim whose shadow size
// differs from its real size depends on a symbol, and the difference tells which symbol
// and with which coefficient: 2*s0 for a flatten, s0 + 1 for a pad. A dim that matches no
// single-symbol linear form keeps its example size.

#include <string>
#include <unordered_map>
#include <vector>

#include "graph/graph.h"
#include "ops/op_registry.h"

namespace fusescope {

class SymbolicSizes {
public:
    // A placeholder with symbols per dim ("" for static dims) and the real tensor's layout.
    void addInput(Node* placeholder, const Tensor& real);
    // A call node: runs `def`'s inference on shadow arguments and names the symbolic dims
    // of node->meta. Does nothing while the graph has no symbols.
    void addCall(Node* node, const OpDef& def);
    bool active() const { return !hints_.empty(); }

private:
    std::string expressionFor(int64_t real, int64_t shadow) const;

    struct Symbol {
        std::string name;
        int64_t hint;
        int64_t offset;
    };
    std::vector<Symbol> hints_;
    std::unordered_map<const Node*, IValue> shadows_;  // a tensor, or a tuple of tensors
};

}  // namespace fusescope
