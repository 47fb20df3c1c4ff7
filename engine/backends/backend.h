#pragma once
// Backends turn a captured graph into something callable. `eager` replays the graph's nodes
// through the op registry; later issues add aot_eager, inductor and the debugging backends.

#include <string>
#include <vector>

#include "graph/graph_compiler.h"

namespace fusescope {

// The backend registered under `name`, or null. "inductor" (torch.compile's default) runs
// graphs eagerly until the lowering/codegen stages exist; the session says so once.
const GraphCompiler* findBackend(const std::string& name);
std::vector<std::string> backendNames();

// Evaluates a graph node by node through the op registry (the eager backend's core; other
// backends reuse it to check their results).
std::vector<Tensor> runGraphEagerly(const Graph& graph, const std::vector<Tensor>& inputs);

}  // namespace fusescope
