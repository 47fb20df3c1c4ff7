#pragma once
// Complex values in a compiled graph become real tensors the code generators take: each
// complex value is carried as its (real, imaginary) pairs, a real tensor with a last dim of
// size 2 (view_as_real), and each complex op as real ops on the parts, as Inductor computes
// complex arithmetic. Complex inputs are passed as their pairs views, complex results come
// back as complex views of the pairs: nothing is copied at the boundary.

#include <memory>
#include <optional>
#include <vector>

#include "graph/graph.h"
#include "graph/graph_compiler.h"

namespace fusescope {

struct PairsGraph {
    std::shared_ptr<Graph> graph;       // computes with real tensors only
    std::vector<bool> complexInputs;    // per placeholder: passed as its pairs
    std::vector<bool> complexOutputs;   // per output: returned as a complex view of pairs
};

// nullopt when no value of `graph` is complex. Throws LoweringUnsupported (the graph then
// runs eagerly, saying so) for a complex op it has no real form for.
std::optional<PairsGraph> graphWithComplexAsPairs(const Graph& graph);

// `compiled`, which runs the pairs graph, called with and returning complex tensors.
CompiledGraph withComplexBoundary(const PairsGraph& pairs, CompiledGraph compiled);

}  // namespace fusescope
