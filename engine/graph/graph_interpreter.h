#pragma once
// Running a graph eagerly: node by node through the dispatcher. The eager backends, every
// fallback of a compile that failed, the accuracy check and the minifier use it.

#include <memory>
#include <unordered_map>
#include <vector>

#include "graph/graph_compiler.h"
#include "ops/op_registry.h"

namespace fusescope {

// Evaluates a graph node by node through the dispatcher. The error injectors override callNode.
class GraphInterpreter {
public:
    explicit GraphInterpreter(const Graph& graph) : graph_(graph) {}
    virtual ~GraphInterpreter() = default;

    std::vector<Tensor> run(const std::vector<Tensor>& inputs);
    // Every node's result from the last run (the minifier turns them into inputs).
    const std::unordered_map<const Node*, IValue>& results() const { return results_; }

protected:
    virtual IValue callNode(const Node& node, const IValueList& args, const Kwargs& kwargs);

private:
    const Graph& graph_;
    std::unordered_map<const Node*, IValue> results_;
};

std::vector<Tensor> runGraphEagerly(const Graph& graph, const std::vector<Tensor>& inputs);
// The graph as a CompiledGraph that runs it eagerly (the eager backends, and every fallback).
// A graph compiled for a GPU makes the tensors of its factory calls without a device= there,
// as its lowered kernels would (AOT Autograd's graphs name no device).
CompiledGraph eagerRunner(std::shared_ptr<const Graph> graph, Device device = Device::cpu());

}  // namespace fusescope
