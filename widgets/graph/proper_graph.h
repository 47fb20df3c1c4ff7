#pragma once
// The proper layered graph that ordering and coordinate assignment work on: every edge joins
// adjacent layers, an edge spanning more having become a chain of dummy vertices, one on each
// layer it crosses.

#include <vector>

#include "graph/layering.h"

namespace fusescope::gui::layered {

struct ProperGraph {
    int realCount = 0;                       // vertices [0, realCount) are the nodes; the rest dummies
    std::vector<int> layerOf;                // per vertex
    std::vector<std::vector<int>> up, down;  // per vertex: neighbours on the layer above / below
    std::vector<std::vector<int>> layers;    // per layer: its vertices, left to right
    std::vector<std::vector<int>> chains;    // per edge: its vertices, top to bottom

    int vertexCount() const { return static_cast<int>(layerOf.size()); }
    bool isDummy(int v) const { return v >= realCount; }
};

ProperGraph buildProperGraph(const std::vector<IndexEdge>& edges, const Layering& layering);

}  // namespace fusescope::gui::layered
