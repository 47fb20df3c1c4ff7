#include "graph/coordinates.h"

#include <algorithm>
#include <utility>

namespace fusescope::gui::layered {

namespace {

// What a vertex is pulled toward. A higher rank wins outright where pulls conflict (a
// vertex gives way to it as if it weighed infinitely more); equal ranks compromise by weight.
struct Pull {
    enum Rank { Loose, ChainEnd, Neighbours, Previous };
    double target = 0;
    double weight = 1;
    Rank rank = Loose;
};

// Weight of a dummy following the rest of its chain against a node following its neighbours
// (one per neighbour): enough that long edges run straight past nodes.
constexpr double kChainWeight = 8;

// Minimises, rank by rank from the highest, the sum of weight * (x - target)^2 over a layer
// subject to x[i+1] - x[i] >= gap[i]. With x[i] = y[i] + offset[i] (offset: the sum of the
// gaps before i) it is isotonic regression of target - offset: pool adjacent violators.
class LayerSolver {
public:
    void solve(const std::vector<Pull>& pulls, const std::vector<double>& gaps, std::vector<double>& x) {
        blocks_.clear();
        double offset = 0;
        for (size_t i = 0; i < pulls.size(); ++i) {
            if (i > 0) offset += gaps[i - 1];
            const Pull& pull = pulls[i];
            blocks_.push_back({pull.rank, pull.weight, pull.weight * (pull.target - offset), i + 1});
            while (blocks_.size() > 1 && mean(blocks_[blocks_.size() - 2]) > mean(blocks_.back())) {
                Block last = blocks_.back();
                blocks_.pop_back();
                absorb(blocks_.back(), last);
            }
        }
        x.resize(pulls.size());
        offset = 0;
        size_t i = 0;
        for (const Block& block : blocks_)
            for (; i < block.end; ++i) {
                if (i > 0) offset += gaps[i - 1];
                x[i] = mean(block) + offset;
            }
    }

private:
    struct Block {
        Pull::Rank rank;
        double weight, weightedSum;  // of its members of that rank
        size_t end;                  // one past its last vertex
    };
    static double mean(const Block& block) { return block.weightedSum / block.weight; }
    static void absorb(Block& into, const Block& next) {
        if (next.rank > into.rank) into = {next.rank, 0, 0, into.end};
        if (next.rank == into.rank) {
            into.weight += next.weight;
            into.weightedSum += next.weightedSum;
        }
        into.end = next.end;
    }
    std::vector<Block> blocks_;
};

enum class Sweep { Down, Up, Both };

class Placer {
public:
    Placer(const ProperGraph& graph, const std::vector<double>& width, const LayoutOptions& options,
           const std::vector<std::optional<double>>& previousX)
        : graph_(graph), width_(width), options_(options), previousX_(previousX), x_(width.size(), 0.0) {}

    std::vector<double> run() {
        for (const auto& layer : graph_.layers)
            for (size_t i = 1; i < layer.size(); ++i) x_[layer[i]] = x_[layer[i - 1]] + gap(layer[i - 1], layer[i]);
        for (Sweep sweep : {Sweep::Down, Sweep::Up, Sweep::Down, Sweep::Up, Sweep::Both}) {
            int count = static_cast<int>(graph_.layers.size());
            for (int step = 0; step < count; ++step) place(graph_.layers[sweep == Sweep::Up ? count - 1 - step : step], sweep);
        }
        return std::move(x_);
    }

private:
    double gap(int left, int right) const {
        bool bothDummies = graph_.isDummy(left) && graph_.isDummy(right);
        return (width_[left] + width_[right]) / 2 + (bothDummies ? options_.edgeSpacing : options_.nodeSpacing);
    }

    // Neighbours of v's own kind where it has any: a node lines up with nodes, so a chain of
    // ops stays one column with long edges beside it, and a dummy with the rest of its chain.
    // Returns whether they were of its kind.
    bool collectNeighbourX(int v, Sweep sweep) {
        for (bool sameKindOnly : {true, false}) {
            neighbourX_.clear();
            auto add = [&](const std::vector<int>& neighbours) {
                for (int n : neighbours)
                    if (!sameKindOnly || graph_.isDummy(n) == graph_.isDummy(v)) neighbourX_.push_back(x_[n]);
            };
            if (sweep != Sweep::Up) add(graph_.up[v]);
            if (sweep != Sweep::Down) add(graph_.down[v]);
            if (!neighbourX_.empty()) return sameKindOnly;
        }
        return false;
    }

    // A vertex placed before stays there; a node goes to the median of its neighbours, a
    // dummy in line with its chain, and only where nothing else wants the room (ChainEnd)
    // with the node at the chain's end, whose own neighbours come first.
    Pull pullOn(int v, Sweep sweep) {
        if (previousX_[v]) return {*previousX_[v], 1, Pull::Previous};
        bool sameKind = collectNeighbourX(v, sweep);
        if (neighbourX_.empty()) return {x_[v], 1, Pull::Loose};
        size_t half = neighbourX_.size() / 2;
        std::nth_element(neighbourX_.begin(), neighbourX_.begin() + static_cast<long>(half), neighbourX_.end());
        double median = neighbourX_[half];
        if (neighbourX_.size() % 2 == 0)
            median = (median + *std::max_element(neighbourX_.begin(), neighbourX_.begin() + static_cast<long>(half))) / 2;
        if (!graph_.isDummy(v)) return {median, static_cast<double>(neighbourX_.size()), Pull::Neighbours};
        return sameKind ? Pull{median, kChainWeight, Pull::Neighbours} : Pull{median, 1, Pull::ChainEnd};
    }

    void place(const std::vector<int>& layer, Sweep sweep) {
        pulls_.clear();
        gaps_.clear();
        for (size_t i = 0; i < layer.size(); ++i) {
            pulls_.push_back(pullOn(layer[i], sweep));
            if (i > 0) gaps_.push_back(gap(layer[i - 1], layer[i]));
        }
        solver_.solve(pulls_, gaps_, solved_);
        for (size_t i = 0; i < layer.size(); ++i) x_[layer[i]] = solved_[i];
    }

    const ProperGraph& graph_;
    const std::vector<double>& width_;
    const LayoutOptions& options_;
    const std::vector<std::optional<double>>& previousX_;
    std::vector<double> x_, neighbourX_, gaps_, solved_;
    std::vector<Pull> pulls_;
    LayerSolver solver_;
};

}  // namespace

std::vector<double> assignX(const ProperGraph& graph, const std::vector<double>& width, const LayoutOptions& options,
                            const std::vector<std::optional<double>>& previousX) {
    return Placer(graph, width, options, previousX).run();
}

}  // namespace fusescope::gui::layered
