// The Graph view's module groups on model-sized graphs: a GPT-style graph of N layers
// (each a Block of LayerNorm, CausalSelfAttention with qkv and proj Linear, LayerNorm and
// an MLP Sequential; about 50 nodes with the lifted parameters), at 10k and 50k nodes. Times,
// from the call to the drawn scene (layout on the worker thread included): opening the
// graph (top levels expanded), expanding one block and one attention inside it, and
// collapsing them again. The baseline, measured in the same run, is opening a flat graph
// of 1,000 nodes (no modules). Target (issue 21): expanding or collapsing a group under
// 100 ms at 50k nodes.
// Usage: bench_module_groups [repeats]

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>

#include "graph/synthetic_graph.h"
#include "views/graph_view.h"

using fusescope::gui::GraphView;

namespace {

nlohmann::json scope(const std::string& path, const std::string& cls) { return {{"path", path}, {"class", cls}}; }

class ModelGraph {
public:
    nlohmann::json nodes = nlohmann::json::array();

    std::string add(const std::string& op, std::vector<std::string> inputs, const nlohmann::json& stack) {
        std::string name = op + "_" + std::to_string(nodes.size());
        nodes.push_back({{"name", name}, {"op", "call_function"}, {"target", "aten." + op}, {"inputs", inputs}, {"nn_module_stack", stack}});
        return name;
    }
    std::string parameter(const std::string& path, const char* what) {
        std::string name = "l_self_modules_" + path + "_parameters_" + what + "_";
        for (char& c : name)
            if (c == '.') c = '_';
        nodes.push_back({{"name", name}, {"op", "placeholder"}, {"target", name}, {"inputs", nlohmann::json::array()}});
        return name;
    }
    std::string linear(const std::string& x, nlohmann::json stack, const std::string& path) {
        stack.push_back(scope(path, "Linear"));
        std::string t = add("t", {parameter(path, "weight")}, stack);
        return add("addmm", {parameter(path, "bias"), x, t}, stack);
    }
    std::string layerNorm(const std::string& x, nlohmann::json stack, const std::string& path) {
        stack.push_back(scope(path, "LayerNorm"));
        std::string mean = add("mean", {x}, stack), centred = add("sub", {x, mean}, stack);
        std::string var = add("var", {centred}, stack), rstd = add("rsqrt", {var}, stack);
        std::string scaled = add("mul", {centred, rstd, parameter(path, "weight")}, stack);
        return add("add", {scaled, parameter(path, "bias")}, stack);
    }
    std::string block(const std::string& x, int layer) {
        std::string path = "blocks." + std::to_string(layer);
        nlohmann::json stack = nlohmann::json::array({scope(path, "Block")});
        nlohmann::json attn = stack, mlp = stack;
        attn.push_back(scope(path + ".attn", "CausalSelfAttention"));
        mlp.push_back(scope(path + ".mlp", "Sequential"));
        std::string h = layerNorm(x, stack, path + ".ln_1");
        std::string qkv = linear(h, attn, path + ".attn.qkv");
        std::string q = add("split", {qkv}, attn), k = add("split", {qkv}, attn), v = add("split", {qkv}, attn);
        std::string scores = add("bmm", {add("view", {q}, attn), add("transpose", {add("view", {k}, attn)}, attn)}, attn);
        std::string masked = add("masked_fill", {add("mul", {scores}, attn)}, attn);
        std::string weights = add("softmax", {masked}, attn);
        std::string out = add("view", {add("bmm", {weights, add("view", {v}, attn)}, attn)}, attn);
        std::string attended = linear(add("contiguous", {add("transpose", {out}, attn)}, attn), attn, path + ".attn.proj");
        std::string residual = add("add", {x, attended}, stack);
        std::string m = linear(layerNorm(residual, stack, path + ".ln_2"), mlp, path + ".mlp.0");
        nlohmann::json gelu = mlp;
        gelu.push_back(scope(path + ".mlp.1", "GELU"));
        m = linear(add("gelu", {m}, gelu), mlp, path + ".mlp.2");
        return add("add", {residual, m}, stack);
    }
};

nlohmann::json gptGraph(int minimumNodes, int* layers) {
    ModelGraph g;
    g.nodes.push_back({{"name", "l_x_"}, {"op", "placeholder"}, {"target", "l_x_"}, {"inputs", nlohmann::json::array()}});
    std::string x = "l_x_";
    for (*layers = 0; static_cast<int>(g.nodes.size()) < minimumNodes; ++*layers) x = g.block(x, *layers);
    g.nodes.push_back({{"name", "output"}, {"op", "output"}, {"target", "output"}, {"inputs", {x}}});
    return {{"nodes", g.nodes}};
}

nlohmann::json flatGraph(int nodeCount) {
    fusescope::gui::SyntheticGraph synthetic = fusescope::gui::syntheticDataflowGraph(nodeCount, 42);
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& n : synthetic.nodes) nodes.push_back({{"name", "n" + std::to_string(n.id)}, {"op", "call_function"}, {"inputs", nlohmann::json::array()}});
    for (const auto& e : synthetic.edges) nodes[e.to]["inputs"].push_back("n" + std::to_string(e.from));
    return {{"nodes", nodes}};
}

int drawnItems(const GraphView& view) { return view.nodeCount() + static_cast<int>(view.collapsedModules().size()); }

// Milliseconds from `change` to the scene drawn (the median of `repeats`; `undo` runs
// between repeats, untimed); `items`: what the change drew.
double drawnMs(GraphView& view, int repeats, const std::function<void()>& change, const std::function<void()>& undo, int* items = nullptr) {
    std::vector<double> times;
    for (int r = 0; r < repeats; ++r) {
        QSignalSpy drawn(&view, &GraphView::layoutFinished);
        QElapsedTimer timer;
        timer.start();
        change();
        if (!drawn.wait(60000)) return -1;
        times.push_back(timer.nsecsElapsed() / 1e6);
        if (items) *items = drawnItems(view);
        if (undo) {
            QSignalSpy undone(&view, &GraphView::layoutFinished);
            undo();
            undone.wait(60000);
        }
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    GraphView view;
    view.resize(1400, 900);
    view.show();
    nlohmann::json flat = flatGraph(1000);
    double baseline = drawnMs(view, repeats, [&] { view.showGraph(fusescope::gui::DrawnGraph::fromJson(flat)); }, nullptr);
    std::printf("baseline: a flat graph of 1000 nodes opens in %.1f ms\n\n", baseline);
    std::printf("%6s %6s %7s  %-28s %9s %8s\n", "nodes", "layers", "drawn", "action", "ms", "/ base");
    for (int size : {10000, 50000}) {
        int layers = 0;
        nlohmann::json graph = gptGraph(size, &layers);
        int nodes = static_cast<int>(graph["nodes"].size());
        int items = 0;
        auto row = [&](const char* action, double ms) {
            std::printf("%6d %6d %7d  %-28s %9.1f %8.2f\n", nodes, layers, items, action, ms, ms / baseline);
        };
        auto settle = [&](const std::function<void()>& change) {
            QSignalSpy drawn(&view, &GraphView::layoutFinished);
            change();
            drawn.wait(60000);
        };
        row("open (top levels)", drawnMs(view, repeats, [&] { view.showGraph(fusescope::gui::DrawnGraph::fromJson(graph)); }, nullptr, &items));
        QString block = QString("blocks.%1").arg(layers / 2), attn = block + ".attn";
        row("expand a block", drawnMs(view, repeats, [&] { view.expandModule(block); }, [&] { view.collapseModule(block); }, &items));
        settle([&] { view.expandModule(block); });
        row("expand its attention", drawnMs(view, repeats, [&] { view.expandModule(attn); }, [&] { view.collapseModule(attn); }, &items));
        settle([&] { view.expandModule(attn); });
        row("collapse the block", drawnMs(view, repeats, [&] { view.collapseModule(block); }, [&] { view.expandModule(block); }, &items));
    }
    return 0;
}
