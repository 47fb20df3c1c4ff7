#pragma once
// What capture hands a finished graph to: a compiler that turns it into something callable.
// The backends (backends/) implement it; capture only knows this interface, and the
// session tells it which compiler a name stands for.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace fusescope {

// Runs a compiled graph: inputs in placeholder order, outputs in graph-output order.
using CompiledGraph = std::function<std::vector<Tensor>(const std::vector<Tensor>& inputs)>;

class GraphCompiler {
public:
    virtual ~GraphCompiler() = default;
    virtual std::string name() const = 0;
    virtual CompiledGraph compile(std::shared_ptr<const Graph> graph) const = 0;
};

// Finds the compiler registered under a backend name; null when there is none.
using CompilerLookup = std::function<const GraphCompiler*(const std::string& backendName)>;

}  // namespace fusescope
