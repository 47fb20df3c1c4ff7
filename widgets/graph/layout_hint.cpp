#include "graph/layout_hint.h"

#include <algorithm>

namespace fusescope::gui {

namespace layered {

std::vector<std::optional<int>> previousLayers(const LayoutHint* hint, const std::vector<LayoutNode>& nodes) {
    std::vector<std::optional<int>> layers;
    if (!hint) return layers;
    layers.resize(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i)
        if (auto it = hint->nodes.find(nodes[i].id); it != hint->nodes.end()) layers[i] = it->second.layer;
    return layers;
}

std::vector<std::optional<double>> previousX(const LayoutHint* hint, const std::vector<LayoutNode>& nodes,
                                             const std::vector<IndexEdge>& edges, const ProperGraph& graph) {
    std::vector<std::optional<double>> x(static_cast<size_t>(graph.vertexCount()));
    if (!hint) return x;
    for (size_t i = 0; i < nodes.size(); ++i)
        if (auto it = hint->nodes.find(nodes[i].id); it != hint->nodes.end()) x[i] = it->second.x;
    for (size_t e = 0; e < edges.size(); ++e) {
        auto it = hint->edges.find({nodes[edges[e].from].id, nodes[edges[e].to].id});
        if (it == hint->edges.end()) continue;
        const PreviousRoute& route = it->second;
        const std::vector<int>& chain = graph.chains[e];
        for (size_t i = 1; i + 1 < chain.size(); ++i) {
            size_t crossed = static_cast<size_t>(graph.layerOf[chain[i]] - route.firstLayer);
            if (crossed < route.x.size()) x[chain[i]] = route.x[crossed];
        }
    }
    return x;
}

}  // namespace layered

LayoutHint hintFrom(const LayeredLayout& layout) {
    LayoutHint hint;
    for (const PlacedNode& node : layout.nodes) hint.nodes[node.id] = {node.layer, node.x};
    for (const RoutedEdge& edge : layout.edges) {
        if (edge.points.size() < 3) continue;
        PreviousRoute& route = hint.edges[{edge.from, edge.to}];
        route.firstLayer = hint.nodes[edge.reversed ? edge.to : edge.from].layer + 1;
        route.x.clear();
        for (size_t i = 1; i + 1 < edge.points.size(); ++i) route.x.push_back(edge.points[i].x);
        if (edge.reversed) std::reverse(route.x.begin(), route.x.end());
    }
    return hint;
}

LayoutHint mergedHint(LayoutHint hint, const std::vector<int>& merged, int into) {
    auto isMerged = [&](int id) { return std::find(merged.begin(), merged.end(), id) != merged.end(); };
    if (merged.empty()) return hint;
    if (auto first = hint.nodes.find(merged.front()); first != hint.nodes.end()) hint.nodes[into] = first->second;
    for (int id : merged)
        if (id != into) hint.nodes.erase(id);
    std::map<std::pair<int, int>, PreviousRoute> edges;
    for (auto& [ends, route] : hint.edges) {
        auto [from, to] = ends;
        if (isMerged(from) && isMerged(to)) continue;  // now inside `into`
        edges.emplace(std::pair{isMerged(from) ? into : from, isMerged(to) ? into : to}, std::move(route));
    }
    hint.edges = std::move(edges);
    return hint;
}

}  // namespace fusescope::gui
