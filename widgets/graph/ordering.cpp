#include "graph/ordering.h"

#include <algorithm>
#include <limits>

namespace fusescope::gui::layered {

namespace {

// The sort keys of the vertices: positions in a fresh layout, x after a previous one.
class Keys {
public:
    Keys(const ProperGraph& graph, const std::vector<std::optional<double>>& previousX)
        : previousX_(previousX), key_(previousX.size()) {
        fresh_ = std::none_of(previousX.begin(), previousX.end(), [](const auto& x) { return x.has_value(); });
        for (const auto& layer : graph.layers)
            for (size_t i = 0; i < layer.size(); ++i) {
                const auto& x = previousX[layer[i]];
                // New vertices of a changed graph go right of the old ones until their neighbours place them.
                key_[layer[i]] = fresh_ ? static_cast<double>(i) : x.value_or(std::numeric_limits<double>::infinity());
            }
    }

    // Moves v to the mean key of `neighbours` unless it holds a previous x or has none.
    void follow(int v, const std::vector<int>& neighbours) {
        if (previousX_[v] || neighbours.empty()) return;
        double sum = 0;
        for (int n : neighbours) sum += key_[n];
        key_[v] = sum / static_cast<double>(neighbours.size());
    }

    void sort(std::vector<int>& layer) {
        std::stable_sort(layer.begin(), layer.end(), [&](int a, int b) { return key_[a] < key_[b]; });
        if (fresh_)
            for (size_t i = 0; i < layer.size(); ++i) key_[layer[i]] = static_cast<double>(i);
    }

private:
    const std::vector<std::optional<double>>& previousX_;
    std::vector<double> key_;
    bool fresh_ = true;
};

// Sorts each layer after the first in sweep direction by its neighbours in the layer before.
void sweep(ProperGraph& graph, Keys& keys, bool downward) {
    int layerCount = static_cast<int>(graph.layers.size());
    for (int step = 1; step < layerCount; ++step) {
        std::vector<int>& layer = graph.layers[downward ? step : layerCount - 1 - step];
        for (int v : layer) keys.follow(v, downward ? graph.up[v] : graph.down[v]);
        keys.sort(layer);
    }
}

// Crossings between `upper` and the layer below: the inversions among the lower ends of its
// edges taken in upper-end order, counted with Barth, Jünger and Mutzel's accumulator tree.
long long crossingsBelow(const ProperGraph& graph, const std::vector<int>& upper, size_t lowerSize,
                         const std::vector<int>& position, std::vector<int>& ends, std::vector<int>& tree) {
    ends.clear();
    for (int u : upper) {
        size_t first = ends.size();
        for (int w : graph.down[u]) ends.push_back(position[w]);
        std::sort(ends.begin() + static_cast<long>(first), ends.end());
    }
    size_t leaves = 1;
    while (leaves < lowerSize) leaves *= 2;
    tree.assign(2 * leaves - 1, 0);
    long long crossings = 0;
    for (int end : ends) {
        size_t node = static_cast<size_t>(end) + leaves - 1;
        ++tree[node];
        while (node > 0) {
            if (node % 2 == 1) crossings += tree[node + 1];  // a left child: ends right of it came first
            node = (node - 1) / 2;
            ++tree[node];
        }
    }
    return crossings;
}

long long countCrossings(const ProperGraph& graph) {
    std::vector<int> position(static_cast<size_t>(graph.vertexCount())), ends, tree;
    for (const auto& layer : graph.layers)
        for (size_t i = 0; i < layer.size(); ++i) position[layer[i]] = static_cast<int>(i);
    long long crossings = 0;
    for (size_t l = 0; l + 1 < graph.layers.size(); ++l)
        crossings += crossingsBelow(graph, graph.layers[l], graph.layers[l + 1].size(), position, ends, tree);
    return crossings;
}

}  // namespace

long long orderLayers(ProperGraph& graph, const std::vector<std::optional<double>>& previousX, int sweeps) {
    Keys keys(graph, previousX);
    if (!graph.layers.empty()) keys.sort(graph.layers.front());
    sweep(graph, keys, true);  // the starting order
    long long best = countCrossings(graph);
    std::vector<std::vector<int>> bestLayers = graph.layers;
    for (int s = 1; s <= sweeps && best > 0; ++s) {
        sweep(graph, keys, s % 2 == 0);
        long long crossings = countCrossings(graph);
        if (crossings >= best) continue;
        best = crossings;
        bestLayers = graph.layers;
    }
    graph.layers = std::move(bestLayers);
    return best;
}

}  // namespace fusescope::gui::layered
