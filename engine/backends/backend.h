#pragma once
// Backends turn a captured graph into something callable. `eager` replays the graph's nodes
// through the op registry; later issues add aot_eager, inductor and the debugging backends.

#include <string>
#include <vector>

#include "graph/graph_compiler.h"

namespace fusescope {

// The backend registered under `name`, or null.
const GraphCompiler* findBackend(const std::string& name);
// torch.compile's default: decompose, lower, schedule with fusion, generate C++, JIT it.
const GraphCompiler& inductorBackend();
std::vector<std::string> backendNames();

// Evaluates a graph node by node through the op registry (the eager backend's core; other
// backends reuse it to check their results).
std::vector<Tensor> runGraphEagerly(const Graph& graph, const std::vector<Tensor>& inputs);

}  // namespace fusescope
