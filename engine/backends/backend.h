#pragma once
// Backends turn a captured graph into something callable: `eager` replays the graph's nodes
// through the op registry, `inductor` generates and compiles code, and the debugging
// backends (debug_backends.cpp) isolate the stage where a compile goes wrong.

#include <string>
#include <unordered_map>
#include <vector>

#include "graph/graph_compiler.h"
#include "ops/op_registry.h"

namespace fusescope {

// The backend registered under `name`, or null.
const GraphCompiler* findBackend(const std::string& name);
// torch.compile's default: decompose, lower, schedule with fusion, generate C++, JIT it.
const GraphCompiler& inductorBackend();
// Every registered name, in the order a bisection tries them, then the testing-only ones.
std::vector<std::string> backendNames();

// Evaluates a graph node by node through the op registry (the eager backends' core; other
// backends and the accuracy check reuse it). The error injectors override callNode.
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
CompiledGraph eagerRunner(std::shared_ptr<const Graph> graph);

}  // namespace fusescope
