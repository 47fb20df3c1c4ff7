#pragma once
// Many edges from one source (a shared input read by 500 nodes), or into one target (a stack
// of 300 values), drawn one by one make a grey band across the graph. Bundled, they are one
// comb: a trunk straight down from the source, a bus along each row of its targets and a
// short drop into each (into a target: the mirror image).

#include <utility>
#include <vector>

#include "graph/layered_layout.h"

namespace fusescope::gui {

using Polyline = std::vector<LayoutPoint>;

// The lines to draw for `edges`: each edge as routed, except those of a source with at least
// `minFan` downward edges, which become its comb, then those of a target with as many of
// the rest.
struct BundledEdges {
    std::vector<Polyline> lines;
    // Where the lines reach their targets, each as its last segment (from, to): an arrowhead
    // goes at `to`, one per edge, or one per comb into a shared target.
    std::vector<std::pair<LayoutPoint, LayoutPoint>> heads;
    int combs = 0;
};
BundledEdges bundledEdges(const std::vector<RoutedEdge>& edges, int minFan);

}  // namespace fusescope::gui
