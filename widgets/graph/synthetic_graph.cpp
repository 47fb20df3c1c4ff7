#include "graph/synthetic_graph.h"

#include <algorithm>
#include <random>

namespace fusescope::gui {

SyntheticGraph syntheticDataflowGraph(int nodeCount, unsigned seed, double farInputFraction) {
    constexpr int kNearBack = 4, kFarMin = 50, kFarMax = 2000;
    std::mt19937 rng(seed);
    auto uniform = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); };
    std::bernoulli_distribution twoInputs(0.5), farInput(farInputFraction);
    SyntheticGraph graph;
    for (int i = 0; i < nodeCount; ++i) {
        // Widths vary like op names do ("add", "convolution_backward").
        graph.nodes.push_back({i, static_cast<double>(uniform(60, 180)), 28});
        if (i == 0) continue;
        int first = i - uniform(1, std::min(kNearBack, i));
        graph.edges.push_back({first, i});
        int second = i - uniform(1, std::min(kNearBack, i));
        if (twoInputs(rng) && second != first) graph.edges.push_back({second, i});
        if (i >= kFarMin && farInput(rng)) graph.edges.push_back({i - uniform(kFarMin, std::min(kFarMax, i)), i});
    }
    return graph;
}

}  // namespace fusescope::gui
