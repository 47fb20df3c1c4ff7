// The inductor backend against eager on the CPU: per workload the eager time, the compiled
// time, the speedup, the bandwidth the compiled code reaches, and the machine's copy
// bandwidth measured in the same run; then the cold and warm (disk cache) compile time of
// the MLP example. Usage: bench_inductor [repeats]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "backends/backend.h"
#include "core/random.h"
#include "decompose/graph_builder.h"
#include "dispatch/dispatcher.h"
#include "session/script_session.h"
#include "toolchain/cpp_jit.h"

using namespace fusescope;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

// Best of `repeats` runs, after one warm-up run.
template <class F>
double bestSeconds(int repeats, F&& f) {
    f();
    double best = 1e30;
    for (int i = 0; i < repeats; ++i) {
        auto t = Clock::now();
        f();
        best = std::min(best, seconds(t));
    }
    return best;
}

// Bytes per second of a plain copy on every core: the bandwidth ceiling for streaming kernels.
double copyBandwidth(size_t bytes, int repeats) {
    std::vector<char> src(bytes, 1), dst(bytes);
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    double s = bestSeconds(repeats, [&] {
        std::vector<std::thread> pool;
        size_t chunk = bytes / threads;
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back([&, t] { std::memcpy(dst.data() + t * chunk, src.data() + t * chunk, chunk); });
        for (auto& th : pool) th.join();
    });
    return 2.0 * bytes / s;  // read + write
}

TensorMeta metaOf(const Shape& sizes) { return TensorMeta{sizes, contiguousStrides(sizes), DType::Float32, std::vector<std::string>(sizes.size())}; }

Tensor randn(const Shape& sizes) {
    return dispatch("randn", {IValue::intList(sizes)}).toTensor();
}

struct Workload {
    std::string name;
    std::shared_ptr<Graph> graph;
    std::vector<Tensor> inputs;
    double bytes = 0;  // the minimum memory traffic: inputs read once, outputs written once
};

// Ten pointwise ops on 16M floats: arithmetic only (memory-bound), or with exp/sin/tanh
// (where vector math decides).
Workload pointwiseChain(int64_t n, bool transcendental) {
    Workload w{transcendental ? "pointwise chain (10 ops, exp/sin/tanh) 16M" : "pointwise chain (10 ops) 16M f32",
               std::make_shared<Graph>(), {randn({n})}, 8.0 * n};
    GraphBuilder b(*w.graph);
    Argument x = Argument::ref(b.placeholder("L['x']", metaOf({n})));
    auto call = [&](const char* op, std::vector<Argument> args) { return Argument::ref(b.call(op, std::move(args))); };
    auto number = [](double v) { return Argument::value(IValue(v)); };
    Argument y = call("mul", {x, number(2.0)});
    y = call("add", {y, number(1.0)});
    y = call("relu", {y});
    y = call("sub", {y, number(0.5)});
    y = transcendental ? call("exp", {y}) : call("mul", {y, y});
    y = call("abs", {y});
    y = transcendental ? call("sin", {y}) : call("add", {y, x});
    y = call("mul", {y, number(3.0)});
    y = transcendental ? call("tanh", {y}) : call("neg", {y});
    y = call("maximum", {y, x});
    w.graph->setOutputs({y});
    return w;
}

Workload unary(const std::string& name, const char* op, const Shape& sizes, std::vector<Argument> extra, double bytes) {
    Workload w{name, std::make_shared<Graph>(), {randn(sizes)}, bytes};
    GraphBuilder b(*w.graph);
    std::vector<Argument> args{Argument::ref(b.placeholder("L['x']", metaOf(sizes)))};
    args.insert(args.end(), extra.begin(), extra.end());
    w.graph->setOutputs({Argument::ref(b.call(op, args))});
    return w;
}

Workload layerNorm(int64_t rows, int64_t cols) {
    Workload w{fmt::format("layer_norm {}x{}", rows, cols), std::make_shared<Graph>(), {randn({rows, cols}), randn({cols}), randn({cols})},
               8.0 * rows * cols};
    GraphBuilder b(*w.graph);
    Argument x = Argument::ref(b.placeholder("L['x']", metaOf({rows, cols})));
    Argument g = Argument::ref(b.placeholder("L['g']", metaOf({cols})));
    Argument be = Argument::ref(b.placeholder("L['b']", metaOf({cols})));
    w.graph->setOutputs({Argument::ref(b.call("layer_norm", {x, Argument::value(IValue::intList({cols})), g, be}))});
    return w;
}

Workload linearGelu(int64_t rows, int64_t in, int64_t out) {
    Workload w{fmt::format("linear({}x{})+bias+gelu, {} rows", in, out, rows), std::make_shared<Graph>(),
               {randn({rows, in}), randn({out, in}), randn({out})}, 4.0 * (rows * in + in * out + rows * out)};
    GraphBuilder b(*w.graph);
    Argument x = Argument::ref(b.placeholder("L['x']", metaOf({rows, in})));
    Argument wt = Argument::ref(b.placeholder("L['w']", metaOf({out, in})));
    Argument bias = Argument::ref(b.placeholder("L['b']", metaOf({out})));
    Argument y = Argument::ref(b.call("linear", {x, wt, bias}));
    w.graph->setOutputs({Argument::ref(b.call("gelu", {y}))});
    return w;
}

// Compile-phase seconds of each graph of the MLP example: from graph capture to loaded code.
double mlpCompileSeconds(const std::string& source) {
    SessionOptions options;
    options.backendOverride = "inductor";
    ScriptSession session(options);
    double total = 0;
    Clock::time_point captured;
    session.bus().subscribe([&](const Event& e) {
        if (std::holds_alternative<GraphCapturedEvent>(e)) captured = Clock::now();
        if (std::holds_alternative<KernelSourceEvent>(e)) total += seconds(captured);
    });
    session.run(source, "09_mlp_block.py");
    return total;
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
    if (!CppJit::available()) {
        std::printf("%s: nothing to measure\n", CppJit::unavailableReason().c_str());
        return 0;
    }
    manualSeed(0);
    std::vector<Workload> workloads;
    workloads.push_back(pointwiseChain(16 << 20, false));
    workloads.push_back(pointwiseChain(16 << 20, true));
    workloads.push_back(unary("softmax 4096x4096", "softmax", {4096, 4096}, {Argument::value(IValue(int64_t{-1}))}, 8.0 * 4096 * 4096));
    workloads.push_back(layerNorm(8192, 1024));
    workloads.push_back(unary("sum over 64M f32", "sum", {64 << 20}, {}, 4.0 * (64 << 20)));
    workloads.push_back(linearGelu(4096, 1024, 1024));

    double copy = copyBandwidth(256u << 20, repeats);
    std::printf("copy bandwidth (memcpy on %u threads): %.1f GB/s\n\n", std::thread::hardware_concurrency(), copy / 1e9);
    std::printf("%-40s %10s %12s %8s %9s %8s\n", "workload", "eager ms", "compiled ms", "speedup", "GB/s", "of copy");
    for (auto& w : workloads) {
        CompiledGraph compiled = inductorBackend().compile(w.graph, CompileRequest{"0/0", "bench", "__compiled_fn_0", nullptr, nullptr});
        double eager = bestSeconds(repeats, [&] { runGraphEagerly(*w.graph, w.inputs); });
        double fast = bestSeconds(repeats, [&] { compiled(w.inputs); });
        double gbs = w.bytes / fast;
        std::printf("%-40s %10.2f %12.2f %7.2fx %9.1f %7.0f%%\n", w.name.c_str(), eager * 1e3, fast * 1e3, eager / fast, gbs / 1e9,
                    100 * gbs / copy);
    }

    std::ifstream in(std::string(FUSESCOPE_SOURCE_DIR) + "/resources/examples/09_mlp_block.py");
    std::stringstream source;
    source << in.rdbuf();
    std::string cache = (std::filesystem::temp_directory_path() / fmt::format("fusescope-bench-{}", ::getpid())).string();
    CppJit::instance().setCacheDir(cache);
    double cold = mlpCompileSeconds(source.str());
    double warm = mlpCompileSeconds(source.str());
    std::filesystem::remove_all(cache);
    std::printf("\nMLP example (09_mlp_block.py, inductor) compile phase: cold %.1f ms, warm (disk cache) %.1f ms\n", cold * 1e3,
                warm * 1e3);
    return 0;
}
