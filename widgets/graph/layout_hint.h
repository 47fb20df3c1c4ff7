#pragma once
// What the layout stages take from a previous layout (LayoutHint): each node's layer, and
// the x of each node and of each dummy whose edge (same ends) crossed its layer before.

#include <optional>
#include <vector>

#include "graph/layered_layout.h"
#include "graph/proper_graph.h"

namespace fusescope::gui::layered {

// One entry per node; empty without a hint.
std::vector<std::optional<int>> previousLayers(const LayoutHint* hint, const std::vector<LayoutNode>& nodes);

// One entry per vertex of `graph`, whose chains are those of `edges`.
std::vector<std::optional<double>> previousX(const LayoutHint* hint, const std::vector<LayoutNode>& nodes,
                                             const std::vector<IndexEdge>& edges, const ProperGraph& graph);

}  // namespace fusescope::gui::layered
