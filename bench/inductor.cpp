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
#include "workloads.h"
#include "dispatch/dispatcher.h"
#include "session/script_session.h"
#include "toolchain/cpp_jit.h"

using namespace fusescope;
using namespace fusescope::bench;
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
