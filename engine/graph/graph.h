#pragma once
// The captured dataflow graph (the FX Graph analogue): placeholders for inputs, one node
// per op call, and an output node. Every node keeps where in the script it came from.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/error.h"
#include "observe/event.h"
#include "ops/ivalue.h"
#include "ops/op_call.h"

namespace fusescope {

struct Node;

// A node argument: a reference to another node's value, a constant, or a list/tuple of
// arguments (cat([a, b])).
struct Argument {
    enum class Kind { NodeRef, Constant, List, Tuple };
    Kind kind = Kind::Constant;
    Node* node = nullptr;
    int outputIndex = -1;  // which result of a tuple-returning node; -1: its only result
    IValue constant;
    std::vector<Argument> items;

    static Argument ref(Node* n, int outputIndex = -1) {
        Argument a;
        a.kind = Kind::NodeRef;
        a.node = n;
        a.outputIndex = outputIndex;
        return a;
    }
    static Argument value(IValue v) { Argument a; a.constant = std::move(v); return a; }
    static Argument sequence(std::vector<Argument> items, bool isTuple) {
        Argument a;
        a.kind = isTuple ? Kind::Tuple : Kind::List;
        a.items = std::move(items);
        return a;
    }
};

// The value an argument stands for, given each node's result through `resultOf` (null when
// a node has none, which makes the whole argument null). A tuple result is indexed by the
// argument's outputIndex.
std::optional<IValue> argumentValue(const Argument& arg, const std::function<const IValue*(const Node*)>& resultOf);

enum class NodeOp { Placeholder, CallFunction, CallMethod, Output };

// Size and type of one tensor value, with symbolic names for dynamic dims ("s0").
struct TensorMeta {
    Shape sizes;
    Shape strides;
    DType dtype = DType::Float32;
    std::vector<std::string> symbols;  // per dim: "" when static
    // Per dim (or none): "" where the stride is the number in `strides`, else what it is in
    // symbols ("s27" for a contiguous [2, s27]'s first; "s12", a symbol of its own, for a slice's).
    std::vector<std::string> strideSymbols = {};
    std::string str() const;  // f32[s0, 3]
};

struct Node {
    NodeOp op = NodeOp::CallFunction;
    std::string name;    // unique within the graph: l_x_, add, add_1
    std::string target;  // op registry name ("add"); for placeholders the source ("L['x']")
    CallStyle style = CallStyle::TorchFunction;
    std::string operatorSymbol;  // "+", "@", "-" (unary) for Operator calls
    std::vector<Argument> args;
    std::vector<std::pair<std::string, Argument>> kwargs;
    std::vector<TensorMeta> meta;  // one per tensor result
    std::string symbolicScalar;    // a SymInt or SymFloat result: what it computes ("s77 - 1"), printed Sym(s77 - 1)
    bool returnsTuple = false;     // the op returns a tuple (max with dim)

    // Provenance.
    SourceLocation where;
    std::string sourceLine;  // stripped text of the line that made it
    std::vector<StackFrame> stack;  // innermost last
    std::vector<ModuleScope> moduleStack;  // the nn.Modules it ran in, outermost first
    int inlineDepth = 0;
    bool gradEnabled = true;  // grad mode when it was traced (false inside torch.no_grad())
    std::string capturedName;  // the captured-graph node it came from; empty in the captured graph itself
    int index = 0;  // position in the graph

    // Where `from` came from, for a node standing for it in a rewritten graph.
    void copyProvenance(const Node& from) {
        where = from.where;
        sourceLine = from.sourceLine;
        stack = from.stack;
        moduleStack = from.moduleStack;
        inlineDepth = from.inlineDepth;
        gradEnabled = from.gradEnabled;
    }
};

class Graph {
public:
    // Named after its source ("L['x']" -> l_x_), or `name` when one is given.
    Node* addPlaceholder(const std::string& source, TensorMeta meta, const std::string& name = "");
    Node* addCall(NodeOp op, const std::string& target, CallStyle style, std::vector<Argument> args,
                  std::vector<std::pair<std::string, Argument>> kwargs);
    // A call node of another graph, copied with its meta and provenance, its arguments
    // (nested ones too) passed through `remap` (which gives each this graph's value).
    Node* addCopyOf(const Node& call, const std::function<Argument(const Argument&)>& remap);
    void setOutputs(std::vector<Argument> outputs);
    // Removes the call nodes `removable` accepts that nothing reads (nor the outputs), and
    // those only they read (a SymInt computed and then not used).
    void removeUnused(const std::function<bool(const Node&)>& removable);

    const std::vector<std::unique_ptr<Node>>& nodes() const { return nodes_; }
    std::vector<Node*> placeholders() const;
    const std::vector<Argument>& outputs() const { return outputs_; }
    int opCount() const;  // call nodes
    bool empty() const { return opCount() == 0; }
    // A fingerprint of the graph's structure (ops, wiring, constants, input metas): two
    // traces that produce the same fingerprint compute the same thing.
    std::string fingerprint() const;

private:
    std::string uniqueName(const std::string& base);
    std::vector<std::unique_ptr<Node>> nodes_;
    std::vector<Argument> outputs_;
    // Names are never freed, so each base keeps the last suffix it handed out and naming
    // a node stays constant time however many share a base (sin, sin_1, ..., sin_4999).
    std::unordered_set<std::string> usedNames_;
    std::unordered_map<std::string, int> lastSuffix_;
};

// What a node argument of one graph is in a copy of it.
using ArgumentRemap = std::function<Argument(const Argument&)>;
// A copy of `graph` (placeholders, calls, outputs) whose call nodes `rewrite` may replace: given
// a node, the copy so far and the remap of the node's arguments into it, it adds what stands
// for the node and returns its result, or nullopt to have the node copied as it is.
std::shared_ptr<Graph> rewriteGraph(const Graph& graph,
                                    const std::function<std::optional<Argument>(const Node&, Graph&, const ArgumentRemap&)>& rewrite);

}  // namespace fusescope
