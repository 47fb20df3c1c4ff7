#include "graph/proper_graph.h"

#include <algorithm>
#include <utility>

namespace fusescope::gui::layered {

ProperGraph buildProperGraph(const std::vector<IndexEdge>& edges, const Layering& layering) {
    ProperGraph graph;
    graph.realCount = static_cast<int>(layering.layer.size());
    graph.layerOf = layering.layer;
    graph.up.resize(layering.layer.size());
    graph.down.resize(layering.layer.size());
    graph.chains.resize(edges.size());
    for (size_t e = 0; e < edges.size(); ++e) {
        auto [top, bottom] = edges[e];
        if (layering.reversed[e]) std::swap(top, bottom);
        std::vector<int>& chain = graph.chains[e];
        chain.push_back(top);
        for (int layer = graph.layerOf[top] + 1; layer < graph.layerOf[bottom]; ++layer) {
            chain.push_back(graph.vertexCount());
            graph.layerOf.push_back(layer);
            graph.up.emplace_back();
            graph.down.emplace_back();
        }
        chain.push_back(bottom);
        for (size_t i = 0; i + 1 < chain.size(); ++i) {
            graph.down[chain[i]].push_back(chain[i + 1]);
            graph.up[chain[i + 1]].push_back(chain[i]);
        }
    }
    int layerCount = graph.layerOf.empty() ? 0 : *std::max_element(graph.layerOf.begin(), graph.layerOf.end()) + 1;
    graph.layers.resize(static_cast<size_t>(layerCount));
    for (int v = 0; v < graph.vertexCount(); ++v) graph.layers[graph.layerOf[v]].push_back(v);
    return graph;
}

}  // namespace fusescope::gui::layered
