#include "graph/layered_layout.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <optional>

#include "graph/coordinates.h"
#include "graph/layering.h"
#include "graph/layout_hint.h"
#include "graph/ordering.h"
#include "graph/proper_graph.h"

namespace fusescope::gui {

namespace {

using namespace layered;

// The edges to lay out as node indices, and for each input edge its index among them (-1 for
// a self loop or an unknown end, which are not drawn).
struct IndexedEdges {
    std::vector<IndexEdge> edges;
    std::vector<int> keptAs;
};

IndexedEdges indexEdges(const std::vector<LayoutNode>& nodes, const std::vector<LayoutEdge>& edges) {
    std::unordered_map<int, int> indexOf;
    for (size_t i = 0; i < nodes.size(); ++i) indexOf.emplace(nodes[i].id, static_cast<int>(i));
    IndexedEdges result;
    result.keptAs.assign(edges.size(), -1);
    for (size_t e = 0; e < edges.size(); ++e) {
        auto from = indexOf.find(edges[e].from), to = indexOf.find(edges[e].to);
        if (from == indexOf.end() || to == indexOf.end() || from->second == to->second) continue;
        result.keptAs[e] = static_cast<int>(result.edges.size());
        result.edges.push_back({from->second, to->second});
    }
    return result;
}

// A fresh layout starts at x = 0.
void startAtZero(std::vector<double>& x, const std::vector<double>& width) {
    if (x.empty()) return;
    double left = x[0] - width[0] / 2;
    for (size_t v = 0; v < x.size(); ++v) left = std::min(left, x[v] - width[v] / 2);
    for (double& value : x) value -= left;
}

// Layers equally tall, so one that a fusion step empties keeps the ones below in place.
std::vector<double> centreY(const ProperGraph& graph, const std::vector<LayoutNode>& nodes, double layerSpacing) {
    double tallest = 0;
    for (const LayoutNode& node : nodes) tallest = std::max(tallest, node.height);
    std::vector<double> y(static_cast<size_t>(graph.vertexCount()));
    for (size_t v = 0; v < y.size(); ++v) y[v] = graph.layerOf[v] * (tallest + layerSpacing) + tallest / 2;
    return y;
}

// From the bottom of the chain's top node through its dummies to the top of its bottom node.
std::vector<LayoutPoint> route(const std::vector<int>& chain, const std::vector<double>& x, const std::vector<double>& y,
                               const std::vector<LayoutNode>& nodes) {
    std::vector<LayoutPoint> points;
    points.reserve(chain.size());
    for (int v : chain) points.push_back({x[v], y[v]});
    points.front().y += nodes[chain.front()].height / 2;
    points.back().y -= nodes[chain.back()].height / 2;
    return points;
}

}  // namespace

LayeredLayout layoutLayered(const std::vector<LayoutNode>& nodes, const std::vector<LayoutEdge>& edges,
                            const LayoutOptions& options, const LayoutHint* previous) {
    IndexedEdges indexed = indexEdges(nodes, edges);
    const int nodeCount = static_cast<int>(nodes.size());
    Layering layering = assignLayers(nodeCount, indexed.edges, previousLayers(previous, nodes));
    // Edges go through the proper graph, unless that takes too many dummies: then the
    // longest are drawn straight.
    long long dummies = 0;
    for (const IndexEdge& edge : indexed.edges) dummies += std::abs(layering.layer[edge.to] - layering.layer[edge.from]) - 1;
    int longestRouted = dummies > static_cast<long long>(options.dummyBudget) * std::max(nodeCount, 1) ? options.longestRoutedSpan
                                                                                                    : INT_MAX;
    std::vector<IndexEdge> shortEdges;
    std::vector<int> shortAs(indexed.edges.size(), -1);
    Layering routedLayering{layering.layer, {}};
    for (size_t e = 0; e < indexed.edges.size(); ++e) {
        const IndexEdge& edge = indexed.edges[e];
        if (std::abs(layering.layer[edge.to] - layering.layer[edge.from]) > longestRouted) continue;
        shortAs[e] = static_cast<int>(shortEdges.size());
        shortEdges.push_back(edge);
        routedLayering.reversed.push_back(layering.reversed[e]);
    }
    ProperGraph graph = buildProperGraph(shortEdges, routedLayering);
    std::vector<std::optional<double>> earlierX = previousX(previous, nodes, shortEdges, graph);
    LayeredLayout layout;
    layout.layerCount = static_cast<int>(graph.layers.size());
    layout.crossings = orderLayers(graph, earlierX, options.sweeps);

    std::vector<double> width(static_cast<size_t>(graph.vertexCount()), 0.0);
    for (size_t i = 0; i < nodes.size(); ++i) width[i] = nodes[i].width;
    std::vector<double> x = assignX(graph, width, options, earlierX);
    if (!previous) startAtZero(x, width);  // after a previous layout, stay in its coordinates
    std::vector<double> y = centreY(graph, nodes, options.layerSpacing);

    for (int i = 0; i < nodeCount; ++i) layout.nodes.push_back({nodes[i].id, graph.layerOf[i], x[i], y[i]});
    for (size_t e = 0; e < edges.size(); ++e) {
        RoutedEdge& routed = layout.edges.emplace_back(RoutedEdge{edges[e].from, edges[e].to, false, {}});
        int kept = indexed.keptAs[e];
        if (kept < 0) continue;
        routed.reversed = layering.reversed[kept];
        const IndexEdge& edge = indexed.edges[kept];
        bool down = layering.layer[edge.from] < layering.layer[edge.to];
        std::vector<int> straight = down ? std::vector<int>{edge.from, edge.to} : std::vector<int>{edge.to, edge.from};  // top to bottom
        routed.points = route(shortAs[kept] < 0 ? straight : graph.chains[shortAs[kept]], x, y, nodes);
        if (routed.reversed) std::reverse(routed.points.begin(), routed.points.end());
    }
    return layout;
}

}  // namespace fusescope::gui
