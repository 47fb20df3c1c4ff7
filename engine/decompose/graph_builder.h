#pragma once
// Builds a graph op by op, giving every result the metadata tracing would have given it:
// the op registry picks the overload and infers sizes, strides and dtype on meta tensors,
// and SymbolicSizes names the dims that depend on dynamic input dims ("s0", "2*s0").
// Passes that rewrite graphs (decompose) emit their nodes through it; tests build their
// input graphs with it.

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "capture/symbolic_sizes.h"
#include "graph/graph.h"

namespace fusescope {

using ArgumentKwargs = std::vector<std::pair<std::string, Argument>>;

class GraphBuilder {
public:
    explicit GraphBuilder(Graph& graph) : graph_(graph) {}

    // A graph input; meta.symbols (one per dim, "" when static) names its dynamic dims. It
    // is named after its source, or `name` when one is given.
    Node* placeholder(const std::string& source, const TensorMeta& meta, const std::string& name = "");
    // A call of registry op `target` (a base name: "sum", "to", "max"). It is spelled as an
    // operator (a + b) for binary + - * /, else as torch.<op>, tensor.<op> or
    // torch.nn.functional.<op>, the first the op allows. Throws Error when no overload fits.
    Node* call(const std::string& target, std::vector<Argument> args, ArgumentKwargs kwargs = {});

    // What an argument stands for: meta tensors for node results, the constant otherwise.
    IValue value(const Argument& arg) const;
    // Whether the graph has dynamic dims (a placeholder with a symbol).
    bool dynamic() const { return symbolic_.active(); }
    // Metadata of the tensor an argument stands for (a node result or a tensor constant).
    TensorMeta meta(const Argument& tensor) const;

private:
    Graph& graph_;
    SymbolicSizes symbolic_;
    std::unordered_map<const Node*, IValue> values_;  // each node's meta result
};

}  // namespace fusescope
