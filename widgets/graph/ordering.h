#pragma once
// Vertex order within the layers (crossing reduction) by barycentric sweeps, alternately down
// and up, keeping the order with the fewest crossings; sorts are stable, so ties keep their
// order. A fresh layout starts from input order and sorts by mean neighbour position. After a
// previous layout, vertices placed before hold their previous x as sort key, so their order
// is kept, and only the new ones move, to the mean key of their neighbours.

#include <optional>
#include <vector>

#include "graph/proper_graph.h"

namespace fusescope::gui::layered {

// Reorders graph.layers; previousX has one entry per vertex. Returns the crossings of the result.
long long orderLayers(ProperGraph& graph, const std::vector<std::optional<double>>& previousX, int sweeps);

}  // namespace fusescope::gui::layered
