#pragma once
// Layered (Sugiyama-style) layout of a directed graph, ours rather than Graphviz's (docs/architecture.md,
// "Graph layout"): layers by longest path plus a light balancing pass, dummy chains for long
// edges, barycentric crossing reduction, straight coordinate assignment. A pure function of its
// arguments with no Qt types, so the Graph view runs it off the GUI thread. Given a hint from
// the previous layout of a graph that changed a little (one fusion step), nodes and edges keep
// their layers and x where the change leaves room, so the picture does not jump.

#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fusescope::gui {

struct LayoutNode {
    int id = 0;  // unique
    double width = 0;
    double height = 0;
};

struct LayoutEdge {
    int from = 0;
    int to = 0;
};

struct LayoutPoint {
    double x = 0;
    double y = 0;
};

struct LayoutOptions {
    double nodeSpacing = 24;   // horizontal gap next to a node
    double edgeSpacing = 8;    // horizontal gap between two long edges passing the same layer
    double layerSpacing = 48;  // vertical gap between layers
    int sweeps = 6;            // crossing reduction passes, alternately down and up
    // When routing every long edge would take more than dummyBudget dummy vertices per node,
    // an edge spanning more than longestRoutedSpan layers is drawn straight, outside crossing
    // reduction: in a model's graph one weight may feed layers thousands of layers down, and
    // a thousand such edges would make the layout quadratic in the graph's length.
    int dummyBudget = 16;
    int longestRoutedSpan = 32;
};

// Where a previous layout put things; layoutLayered keeps them there where it can.
struct PreviousPlacement {
    int layer = 0;
    double x = 0;
};
struct PreviousRoute {
    int firstLayer = 0;     // the layer below its upper end
    std::vector<double> x;  // where it crossed firstLayer, firstLayer + 1, ...
};
struct LayoutHint {
    std::unordered_map<int, PreviousPlacement> nodes;    // by node id
    std::map<std::pair<int, int>, PreviousRoute> edges;  // by (from, to)
};

struct PlacedNode {
    int id = 0;
    int layer = 0;  // 0 at the top
    double x = 0;   // centre
    double y = 0;   // centre
};

struct RoutedEdge {
    int from = 0;
    int to = 0;
    bool reversed = false;  // closed a cycle, so it was laid out upward
    // From the border of `from` facing the edge to that of `to`, through one point on every
    // layer in between. Empty for a self loop or an edge naming an unknown node.
    std::vector<LayoutPoint> points;
};

struct LayeredLayout {
    std::vector<PlacedNode> nodes;  // in input order
    std::vector<RoutedEdge> edges;  // in input order
    int layerCount = 0;
    long long crossings = 0;  // edge crossings between adjacent layers in the result
};

LayeredLayout layoutLayered(const std::vector<LayoutNode>& nodes, const std::vector<LayoutEdge>& edges,
                            const LayoutOptions& options = {}, const LayoutHint* previous = nullptr);

// The hint that keeps the next layout of a slightly changed graph close to this one.
LayoutHint hintFrom(const LayeredLayout& layout);

// The hint after nodes `merged` became node `into` (a fusion step): `into` takes the place
// of the first of them, and their edges' routes become its edges' routes.
LayoutHint mergedHint(LayoutHint hint, const std::vector<int>& merged, int into);

}  // namespace fusescope::gui
