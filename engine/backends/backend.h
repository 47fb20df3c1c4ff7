#pragma once
// Backends turn a captured graph into something callable. `eager` replays the graph's nodes
// through the op registry; later issues add aot_eager, inductor and the debugging backends.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace fusescope {

// Runs a compiled graph: inputs in placeholder order, outputs in graph-output order.
using CompiledGraph = std::function<std::vector<Tensor>(const std::vector<Tensor>& inputs)>;

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;
    virtual CompiledGraph compile(std::shared_ptr<const Graph> graph) const = 0;
};

// The backend registered under `name`, or null. "inductor" (torch.compile's default) runs
// graphs eagerly until the lowering/codegen stages exist; the session says so once.
const Backend* findBackend(const std::string& name);
std::vector<std::string> backendNames();

// Evaluates a graph node by node through the op registry (the eager backend's core; other
// backends reuse it to check their results).
std::vector<Tensor> runGraphEagerly(const Graph& graph, const std::vector<Tensor>& inputs);

}  // namespace fusescope
