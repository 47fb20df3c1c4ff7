#pragma once
// A graph shaped like a compiled model's dataflow graph, for the layout benchmark and tests:
// node i takes one or two inputs from the few nodes just before it, and a fraction of the
// nodes also take one from 50-2000 nodes back (residuals, weights, saved activations), the
// long edges that make Graphviz's dot slow.

#include <vector>

#include "graph/layered_layout.h"

namespace fusescope::gui {

struct SyntheticGraph {
    std::vector<LayoutNode> nodes;  // ids 0..n-1 in creation order
    std::vector<LayoutEdge> edges;
};

SyntheticGraph syntheticDataflowGraph(int nodeCount, unsigned seed, double farInputFraction = 0.1);

}  // namespace fusescope::gui
