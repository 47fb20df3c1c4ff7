#include "graph/layering.h"

#include <algorithm>
#include <climits>
#include <utility>

namespace fusescope::gui::layered {

namespace {

using Adjacency = std::vector<std::vector<int>>;  // node -> indices of its edges

Adjacency edgesBy(int nodeCount, const std::vector<IndexEdge>& edges, int IndexEdge::*end) {
    Adjacency adjacency(static_cast<size_t>(nodeCount));
    for (size_t e = 0; e < edges.size(); ++e) adjacency[edges[e].*end].push_back(static_cast<int>(e));
    return adjacency;
}

// Back edges of an iterative depth-first search in input order (deep graphs would overflow
// a recursive one); reversing them leaves the graph acyclic.
std::vector<char> findBackEdges(int nodeCount, const std::vector<IndexEdge>& edges) {
    Adjacency out = edgesBy(nodeCount, edges, &IndexEdge::from);
    enum : char { Unseen, OnStack, Done };
    std::vector<char> state(static_cast<size_t>(nodeCount), Unseen), back(edges.size(), 0);
    std::vector<std::pair<int, size_t>> stack;  // node, its next edge to follow
    for (int root = 0; root < nodeCount; ++root) {
        if (state[root] != Unseen) continue;
        state[root] = OnStack;
        stack.push_back({root, 0});
        while (!stack.empty()) {
            auto [v, next] = stack.back();
            if (next == out[v].size()) {
                state[v] = Done;
                stack.pop_back();
                continue;
            }
            ++stack.back().second;
            int e = out[v][next], w = edges[e].to;
            if (state[w] == OnStack) back[e] = 1;
            if (state[w] != Unseen) continue;
            state[w] = OnStack;
            stack.push_back({w, 0});
        }
    }
    return back;
}

std::vector<int> topologicalOrder(int nodeCount, const std::vector<IndexEdge>& dag, const Adjacency& down) {
    std::vector<int> indegree(static_cast<size_t>(nodeCount), 0), order;
    for (const IndexEdge& e : dag) ++indegree[e.to];
    for (int v = 0; v < nodeCount; ++v)
        if (indegree[v] == 0) order.push_back(v);
    for (size_t i = 0; i < order.size(); ++i)
        for (int e : down[order[i]])
            if (--indegree[dag[e].to] == 0) order.push_back(dag[e].to);
    return order;
}

}  // namespace

Layering assignLayers(int nodeCount, const std::vector<IndexEdge>& edges,
                      const std::vector<std::optional<int>>& previousLayer) {
    Layering result;
    result.reversed = findBackEdges(nodeCount, edges);
    std::vector<IndexEdge> dag = edges;
    for (size_t e = 0; e < dag.size(); ++e)
        if (result.reversed[e]) std::swap(dag[e].from, dag[e].to);
    Adjacency down = edgesBy(nodeCount, dag, &IndexEdge::from), up = edgesBy(nodeCount, dag, &IndexEdge::to);
    std::vector<int> order = topologicalOrder(nodeCount, dag, down);
    std::vector<int>& layer = result.layer;
    layer.assign(static_cast<size_t>(nodeCount), 0);

    for (int v : order)
        for (int e : down[v]) layer[dag[e].to] = std::max(layer[dag[e].to], layer[v] + 1);

    // A chain hanging from a source (each input feeding only the next node), such as a
    // mask built from constants, can move down as a whole: it goes next to where it is used
    // instead of staying at the top with the graph's inputs.
    std::vector<char> hanging(static_cast<size_t>(nodeCount), 0);
    for (int v : order) {
        hanging[v] = 1;
        for (int e : up[v]) hanging[v] &= hanging[dag[e].from] && down[dag[e].from].size() == 1;
    }

    // Bottom up, so consumers are final first. Moving a node with more outputs than inputs
    // (or a hanging chain's node) toward its consumers shortens more edges than it
    // lengthens; sinks and the longest path stay where they are, so the layer count does
    // not change.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        if (down[*it].empty() || (down[*it].size() <= up[*it].size() && !hanging[*it])) continue;
        int nearest = INT_MAX;
        for (int e : down[*it]) nearest = std::min(nearest, layer[dag[e].to]);
        layer[*it] = nearest - 1;
    }

    // Top down, so a node held at its previous layer pushes its consumers below it.
    if (!previousLayer.empty())
        for (int v : order) {
            int floor = 0;
            for (int e : up[v]) floor = std::max(floor, layer[dag[e].from] + 1);
            layer[v] = std::max(floor, previousLayer[v].value_or(layer[v]));
        }
    return result;
}

}  // namespace fusescope::gui::layered
