#pragma once
// Layer assignment of the layered layout: cycles broken by reversing the back edges of a
// depth-first search, longest-path layers, then a light balancing pass that pulls nodes with
// more outputs than inputs, and chains hanging from a source, down next to their nearest
// consumer (shorter edges, fewer dummies).
// Previous layers, where given, are kept as far as the edges allow.

#include <optional>
#include <vector>

namespace fusescope::gui::layered {

struct IndexEdge {
    int from = 0;  // node indices; no self loops
    int to = 0;
};

struct Layering {
    std::vector<int> layer;      // per node, 0 at the top
    std::vector<char> reversed;  // per edge: closed a cycle, so laid out from `to` down to `from`
};

// previousLayer is empty or has one entry per node.
Layering assignLayers(int nodeCount, const std::vector<IndexEdge>& edges,
                      const std::vector<std::optional<int>>& previousLayer);

}  // namespace fusescope::gui::layered
