// The layered graph layout (widgets/graph): exact results on small graphs, the drawing's
// invariants on random dataflow graphs (no overlaps, edges downward, the reported crossings
// are those drawn), cycles, and stability: an unchanged graph keeps its layout, a fusion step
// moves at most a few nodes.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "graph/layered_layout.h"
#include "graph/synthetic_graph.h"

using namespace fusescope::gui;

namespace {

constexpr double kEpsilon = 1e-6;

std::vector<LayoutNode> boxes(int count, double width = 60, double height = 20) {
    std::vector<LayoutNode> nodes;
    for (int id = 0; id < count; ++id) nodes.push_back({id, width, height});
    return nodes;
}

std::map<int, PlacedNode> byId(const LayeredLayout& layout) {
    std::map<int, PlacedNode> placed;
    for (const PlacedNode& node : layout.nodes) placed[node.id] = node;
    return placed;
}

// Longest path from a source to every node of a DAG whose edges go from lower to higher ids.
std::map<int, int> longestPaths(const SyntheticGraph& graph) {
    std::map<int, int> length;
    std::vector<LayoutEdge> edges = graph.edges;
    std::sort(edges.begin(), edges.end(), [](const LayoutEdge& a, const LayoutEdge& b) { return a.to < b.to; });
    for (const LayoutNode& node : graph.nodes) length[node.id] = 0;
    for (const LayoutEdge& edge : edges) length[edge.to] = std::max(length[edge.to], length[edge.from] + 1);
    return length;
}

// Crossings counted from the polylines: two segments between the same pair of adjacent
// layers cross when their ends are in opposite x order at the top and at the bottom.
long long drawnCrossings(const LayeredLayout& layout, double pitch) {
    std::map<long, std::vector<std::pair<double, double>>> segments;  // by upper layer: (top x, bottom x)
    for (const RoutedEdge& edge : layout.edges)
        for (size_t i = 0; i + 1 < edge.points.size(); ++i) {
            LayoutPoint a = edge.points[i], b = edge.points[i + 1];
            if (a.y > b.y) std::swap(a, b);
            segments[std::lround(a.y / pitch)].push_back({a.x, b.x});
        }
    long long crossings = 0;
    for (const auto& [layer, list] : segments)
        for (size_t i = 0; i < list.size(); ++i)
            for (size_t j = i + 1; j < list.size(); ++j)
                if ((list[i].first - list[j].first) * (list[i].second - list[j].second) < -kEpsilon) ++crossings;
    return crossings;
}

// Nodes and the edges passing a layer keep their spacing; edges of a DAG run downward from
// the bottom of their source to the top of their target.
void checkDrawing(const LayeredLayout& layout, const std::vector<LayoutNode>& nodes, const LayoutOptions& options) {
    std::map<int, LayoutNode> input;
    for (const LayoutNode& node : nodes) input[node.id] = node;
    std::map<long, std::vector<std::pair<double, double>>> rows;  // by y: (left, right) of nodes
    for (const PlacedNode& node : layout.nodes) {
        double half = input[node.id].width / 2;
        rows[std::lround(node.y)].push_back({node.x - half, node.x + half});
    }
    for (auto& [y, row] : rows) {
        std::sort(row.begin(), row.end());
        for (size_t i = 1; i < row.size(); ++i) QVERIFY(row[i].first - row[i - 1].second >= options.nodeSpacing - kEpsilon);
    }
    std::map<int, PlacedNode> placed = byId(layout);
    for (const RoutedEdge& edge : layout.edges) {
        QVERIFY(!edge.reversed);
        QCOMPARE(edge.points.front().y, placed[edge.from].y + input[edge.from].height / 2);
        QCOMPARE(edge.points.back().y, placed[edge.to].y - input[edge.to].height / 2);
        for (size_t i = 1; i < edge.points.size(); ++i) QVERIFY(edge.points[i].y > edge.points[i - 1].y);
        for (size_t i = 1; i + 1 < edge.points.size(); ++i)
            for (const auto& [left, right] : rows[std::lround(edge.points[i].y)])
                QVERIFY(edge.points[i].x <= left - options.nodeSpacing + kEpsilon || edge.points[i].x >= right + options.nodeSpacing - kEpsilon);
    }
}

// A fusion step: b (whose only input is a) merged into a new node `into`.
SyntheticGraph fuse(const SyntheticGraph& graph, int a, int b, int into) {
    SyntheticGraph fused;
    for (const LayoutNode& node : graph.nodes)
        if (node.id == a) fused.nodes.push_back({into, node.width, node.height});
        else if (node.id != b) fused.nodes.push_back(node);
    auto renamed = [&](int id) { return id == a || id == b ? into : id; };
    for (const LayoutEdge& edge : graph.edges)
        if (!(edge.from == a && edge.to == b)) fused.edges.push_back({renamed(edge.from), renamed(edge.to)});
    return fused;
}

int movedNodes(const LayeredLayout& before, const LayeredLayout& after) {
    std::map<int, PlacedNode> old = byId(before);
    int moved = 0;
    for (const PlacedNode& node : after.nodes)
        if (auto it = old.find(node.id); it != old.end())
            moved += std::abs(it->second.x - node.x) > 0.5 || std::abs(it->second.y - node.y) > 0.5;
    return moved;
}

}  // namespace

class GraphLayoutTest : public QObject {
    Q_OBJECT
private slots:
    void chainIsOneColumn() {
        std::vector<LayoutNode> nodes = boxes(5);
        nodes[2].width = 140;
        LayeredLayout layout = layoutLayered(nodes, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
        QCOMPARE(layout.layerCount, 5);
        QCOMPARE(layout.crossings, 0LL);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(layout.nodes[i].layer, i);
            QCOMPARE(layout.nodes[i].x, 70.0);  // the widest node starts at x = 0
        }
        for (const RoutedEdge& edge : layout.edges) QCOMPARE(edge.points.size(), size_t(2));
    }

    void diamondHasTwoNodesInTheMiddle() {
        LayeredLayout layout = layoutLayered(boxes(4), {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
        QCOMPARE(layout.layerCount, 3);
        std::vector<int> layers;
        for (const PlacedNode& node : layout.nodes) layers.push_back(node.layer);
        QCOMPARE(layers, (std::vector<int>{0, 1, 1, 2}));
        const auto& n = layout.nodes;
        QCOMPARE(n[1].y, n[2].y);
        QCOMPARE(std::abs(n[2].x - n[1].x), 60.0 + LayoutOptions{}.nodeSpacing);
        QCOMPARE(n[0].x, (n[1].x + n[2].x) / 2);  // symmetric: the fork and the join centred
        QCOMPARE(n[3].x, n[0].x);
    }

    void longEdgeGetsAPointOnEveryLayerItCrosses() {
        LayeredLayout layout = layoutLayered(boxes(4), {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
        const RoutedEdge& skip = layout.edges[3];
        QCOMPARE(skip.points.size(), size_t(4));
        QCOMPARE(skip.points[1].y, layout.nodes[1].y);
        QCOMPARE(skip.points[2].y, layout.nodes[2].y);
        QCOMPARE(skip.points[1].x, skip.points[2].x);  // a straight run past the chain
        QVERIFY(skip.points[1].x != layout.nodes[1].x);
    }

    void layerIsTheLongestPathFromTheSources() {
        SyntheticGraph graph = syntheticDataflowGraph(300, 5);
        LayeredLayout layout = layoutLayered(graph.nodes, graph.edges);
        std::map<int, int> longest = longestPaths(graph), inputs, outputs, nearestConsumer;
        for (const LayoutEdge& edge : graph.edges) {
            ++inputs[edge.to];
            ++outputs[edge.from];
            auto [it, fresh] = nearestConsumer.try_emplace(edge.from, layout.nodes[edge.to].layer);
            if (!fresh) it->second = std::min(it->second, layout.nodes[edge.to].layer);
        }
        // Chains hanging from a source: every input feeds only this node (ids are topological).
        std::map<int, bool> hanging;
        for (const LayoutNode& node : graph.nodes) hanging[node.id] = true;
        for (const LayoutEdge& edge : graph.edges) hanging[edge.to] = hanging[edge.to] && hanging[edge.from] && outputs[edge.from] == 1;
        // Balancing moves only nodes with more outputs than inputs or hanging from a source,
        // and only down toward their consumers.
        for (const PlacedNode& node : layout.nodes) {
            if (outputs[node.id] <= inputs[node.id] && !(hanging[node.id] && outputs[node.id] > 0)) QCOMPARE(node.layer, longest[node.id]);
            else QVERIFY(node.layer >= longest[node.id] && node.layer < nearestConsumer[node.id]);
        }
    }

    void balancingPullsAnInputDownToItsConsumer() {
        // 4 feeds only 3, at the end of the chain 0-1-2-3: it sits just above 3, not at the top.
        LayeredLayout layout = layoutLayered(boxes(5), {{0, 1}, {1, 2}, {2, 3}, {4, 3}});
        QCOMPARE(layout.nodes[4].layer, 2);
        QCOMPARE(layout.edges[3].points.size(), size_t(2));
    }

    void aChainHangingFromAConstantSitsAboveItsConsumer() {
        // 0-1-2-3-4-5 is the graph's spine; 6-7-8 (a mask built from constants) feeds 5 only:
        // it is laid out just above 5, not from the top.
        LayeredLayout layout = layoutLayered(boxes(9), {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {6, 7}, {7, 8}, {8, 5}});
        std::map<int, PlacedNode> placed = byId(layout);
        QCOMPARE(placed[5].layer, 5);
        QCOMPARE((std::vector<int>{placed[6].layer, placed[7].layer, placed[8].layer}), (std::vector<int>{2, 3, 4}));
        // A node whose input feeds others too stays at its longest path.
        LayeredLayout shared = layoutLayered(boxes(5), {{0, 1}, {1, 2}, {2, 3}, {0, 4}, {4, 3}});
        QCOMPARE(byId(shared)[4].layer, 1);
    }

    void randomGraphsDrawCleanly() {
        LayoutOptions options;
        for (unsigned seed : {1u, 2u, 3u}) {
            SyntheticGraph graph = syntheticDataflowGraph(400, seed, 0.2);
            LayeredLayout layout = layoutLayered(graph.nodes, graph.edges, options);
            checkDrawing(layout, graph.nodes, options);
            if (QTest::currentTestFailed()) return;
            QCOMPARE(drawnCrossings(layout, 28 + options.layerSpacing), layout.crossings);
        }
    }

    void crossableGraphEndsWithoutCrossings() {
        // In input order 2 sits under 0 but is fed by 1, and 3 the other way round; 4 and 5
        // below them likewise.
        std::vector<LayoutEdge> edges = {{0, 3}, {1, 2}, {2, 5}, {3, 4}, {1, 5}};
        LayeredLayout layout = layoutLayered(boxes(6, 60, 0), edges);
        QCOMPARE(layout.crossings, 0LL);
        QCOMPARE(drawnCrossings(layout, LayoutOptions{}.layerSpacing), 0LL);
    }

    void unavoidableCrossingsAreCounted() {
        // K(3,3) is not planar: some crossing stays, and the count is the one drawn.
        std::vector<LayoutEdge> edges;
        for (int top = 0; top < 3; ++top)
            for (int bottom = 3; bottom < 6; ++bottom) edges.push_back({top, bottom});
        LayeredLayout layout = layoutLayered(boxes(6, 60, 0), edges);
        QVERIFY(layout.crossings > 0);
        QCOMPARE(drawnCrossings(layout, LayoutOptions{}.layerSpacing), layout.crossings);
    }

    void cyclesSelfLoopsAndUnknownNodesDoNotBreakIt() {
        QVERIFY(layoutLayered({}, {{1, 2}}).nodes.empty());
        std::vector<LayoutEdge> edges = {{0, 1}, {1, 2}, {2, 0}, {3, 3}, {2, 99}, {2, 3}};
        LayeredLayout layout = layoutLayered(boxes(4), edges);
        QCOMPARE(layout.nodes.size(), size_t(4));
        QCOMPARE(layout.edges.size(), edges.size());
        QVERIFY(layout.edges[2].reversed);  // the edge closing the cycle, drawn upward
        QVERIFY(layout.edges[2].points.front().y > layout.edges[2].points.back().y);
        QVERIFY(layout.edges[3].points.empty());
        QVERIFY(layout.edges[4].points.empty());
        for (int e : {0, 1, 5}) {
            QVERIFY(!layout.edges[e].reversed);
            QVERIFY(layout.edges[e].points.front().y < layout.edges[e].points.back().y);
        }
    }

    void unchangedGraphKeepsItsLayout() {
        // Recolouring nodes lays out the same graph again, given the last layout.
        SyntheticGraph graph = syntheticDataflowGraph(300, 1);
        LayeredLayout first = layoutLayered(graph.nodes, graph.edges);
        LayoutHint hint = hintFrom(first);
        LayeredLayout again = layoutLayered(graph.nodes, graph.edges, {}, &hint);
        QCOMPARE(movedNodes(first, again), 0);
        for (size_t e = 0; e < first.edges.size(); ++e)
            for (size_t i = 0; i < first.edges[e].points.size(); ++i)
                QVERIFY(std::abs(first.edges[e].points[i].x - again.edges[e].points[i].x) < kEpsilon);
    }

    void fusionStepMovesAtMostAFewNodes() {
        constexpr int kFused = 1000000;
        for (unsigned seed : {1u, 2u, 3u, 4u}) {
            SyntheticGraph graph = syntheticDataflowGraph(300, seed);
            LayeredLayout before = layoutLayered(graph.nodes, graph.edges);
            std::map<int, int> producer, inputs;
            for (const LayoutEdge& edge : graph.edges) {
                producer[edge.to] = edge.from;
                ++inputs[edge.to];
            }
            int steps = 0;
            for (int b = 20; b < 300 && steps < 5; b += 13) {
                if (inputs[b] != 1) continue;  // fuse a pointwise consumer into its producer
                int a = producer[b];
                ++steps;
                SyntheticGraph fused = fuse(graph, a, b, kFused);
                LayoutHint hint = mergedHint(hintFrom(before), {a, b}, kFused);
                LayeredLayout after = layoutLayered(fused.nodes, fused.edges, {}, &hint);
                int moved = movedNodes(before, after);
                QVERIFY2(moved <= 5, qPrintable(QString("seed %1, fusing %2 into %3 moved %4 nodes").arg(seed).arg(b).arg(a).arg(moved)));
            }
            QCOMPARE(steps, 5);
        }
    }

    void largeRandomGraphCompletes() {
        LayoutOptions options;
        SyntheticGraph graph = syntheticDataflowGraph(2000, 7);
        LayeredLayout layout = layoutLayered(graph.nodes, graph.edges, options);
        QCOMPARE(layout.nodes.size(), graph.nodes.size());
        checkDrawing(layout, graph.nodes, options);
    }

    void aWeightFeedingAThousandLayersIsDrawnStraight() {
        // A chain 1..3000 and a weight (0) read by every third node, as a model's graph: routed
        // through dummies that would be about 1.5 million of them.
        std::vector<LayoutEdge> edges;
        for (int v = 1; v < 3000; ++v) edges.push_back({v, v + 1});
        for (int v = 3; v <= 3000; v += 3) edges.push_back({0, v});
        LayeredLayout layout = layoutLayered(boxes(3001), edges);
        QCOMPARE(layout.nodes.size(), size_t(3001));
        std::map<int, PlacedNode> placed = byId(layout);
        for (const RoutedEdge& edge : layout.edges) {
            int span = std::abs(placed[edge.to].layer - placed[edge.from].layer);
            if (span > LayoutOptions{}.longestRoutedSpan) QCOMPARE(edge.points.size(), size_t(2));  // straight
            else QCOMPARE(edge.points.size(), size_t(span + 1));                                  // a point per layer
        }
        // A small graph's long edges keep their points on every layer.
        LayeredLayout small = layoutLayered(boxes(41), [] {
            std::vector<LayoutEdge> chain{{0, 40}};
            for (int v = 0; v < 40; ++v) chain.push_back({v, v + 1});
            return chain;
        }());
        QCOMPARE(small.edges[0].points.size(), size_t(41));
    }
};

QTEST_MAIN(GraphLayoutTest)
#include "graph_layout_test.moc"
