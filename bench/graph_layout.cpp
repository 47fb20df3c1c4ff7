// Layered layout of dataflow-shaped graphs (widgets/graph): a 1,000- and a 5,000-node graph
// whose nodes take their inputs from the few nodes before them, a tenth of them also one from
// 50-2000 nodes back. Times a fresh layout and one given the previous layout as a hint (the
// Graph view stepping through fusion), best of N. Usage: bench_graph_layout [repeats]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "graph/layered_layout.h"
#include "graph/synthetic_graph.h"

using namespace fusescope::gui;
using Clock = std::chrono::steady_clock;

namespace {

template <typename Layout>
double bestSeconds(int repeats, LayeredLayout& result, Layout&& layout) {
    double best = 1e30;
    for (int r = 0; r < repeats; ++r) {
        auto start = Clock::now();
        result = layout();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
    }
    return best;
}

void run(int nodeCount, int repeats) {
    SyntheticGraph graph = syntheticDataflowGraph(nodeCount, 42);
    LayeredLayout fresh, hinted;
    double freshSeconds = bestSeconds(repeats, fresh, [&] { return layoutLayered(graph.nodes, graph.edges); });
    LayoutHint hint = hintFrom(fresh);
    double hintedSeconds =
        bestSeconds(repeats, hinted, [&] { return layoutLayered(graph.nodes, graph.edges, {}, &hint); });
    size_t dummies = 0;
    for (const RoutedEdge& edge : fresh.edges) dummies += edge.points.size() - 2;
    std::printf("%6d %6zu %7d %8zu %10lld %9.1f %10.1f\n", nodeCount, graph.edges.size(), fresh.layerCount, dummies,
                fresh.crossings, freshSeconds * 1e3, hintedSeconds * 1e3);
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    std::printf(" nodes  edges  layers  dummies  crossings  fresh ms  hinted ms\n");
    for (int nodeCount : {1000, 5000}) run(nodeCount, repeats);
    return 0;
}
