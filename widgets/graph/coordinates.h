#pragma once
// Horizontal coordinates of the ordered layers. Each layer starts packed by width and
// spacing; sweeps alternately down and up then pull every vertex toward the median x of its
// neighbours in the layer before (a vertex placed before toward its previous x), each layer
// solved exactly as weighted least squares under the spacing constraints. Dummies weigh more
// than nodes, so long edges run straight.

#include <optional>
#include <vector>

#include "graph/layered_layout.h"
#include "graph/proper_graph.h"

namespace fusescope::gui::layered {

// The centre x of every vertex; width and previousX have one entry per vertex.
std::vector<double> assignX(const ProperGraph& graph, const std::vector<double>& width, const LayoutOptions& options,
                            const std::vector<std::optional<double>>& previousX);

}  // namespace fusescope::gui::layered
