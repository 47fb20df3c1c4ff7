// The inductor backend against eager on the CPU: per workload the eager time, the compiled
// time, the speedup, the bandwidth the compiled code reaches, and that against the limit
// it is held to, measured in turn with the row's compiled runs: a copy for maps, a
// read-only sum for reductions.
// Then the cold and warm (disk cache) compile time of the MLP example.
// Usage: bench_inductor [repeats [name-part]] (with a name part, only the workloads whose
// names contain it).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
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

// The limits, compiled by the kernels' own toolchain (Clang -O3 for this CPU, the same
// OpenMP threads): a copy and a sum, each the plainest loop over all threads. (glibc's
// memcpy stores large copies past the cache, which on these machines' 300 MB L3 made it
// slower than the kernels it was meant to bound.)
const char* kLimitLoops = R"(
extern "C" void limit_copy(const float* __restrict src, float* __restrict dst, long n) {
    #pragma omp parallel for simd
    for (long i = 0; i < n; ++i) dst[i] = src[i];
}
extern "C" float limit_sum(const float* __restrict src, long n) {
    float total = 0;
    #pragma omp parallel for simd reduction(+ : total)
    for (long i = 0; i < n; ++i) total += src[i];
    return total;
}
)";

// Best of `repeats` runs of each of `a` and `b`, run in turn after a warm-up run of each,
// so that a row and its limit meet the same moments of the shared machine (a copy limit
// measured once before the rows moved between 21 and 30 GB/s from run to run).
template <class A, class B>
std::pair<double, double> bestSecondsInTurn(int repeats, A&& a, B&& b) {
    a();
    b();
    double bestA = 1e30, bestB = 1e30;
    for (int i = 0; i < repeats; ++i) {
        auto t = Clock::now();
        a();
        bestA = std::min(bestA, seconds(t));
        t = Clock::now();
        b();
        bestB = std::min(bestB, seconds(t));
    }
    return {bestA, bestB};
}

// A limit loop over the row's first input (its largest), and the bytes one run of it moves
// (a copy counts what it reads and what it writes): a copy of it into a buffer of its size,
// or its sum. On the input itself, so that the limit reads what the row reads (caches
// decide what a size reaches: the 2-core machines' 300 MB L3 holds a 64 MB input but not a
// 256 MB one) and the two share the L3 with no more than the copy's destination.
struct LimitLoop {
    std::function<void()> run;
    double bytesMoved = 0;
};
volatile float limitSumSink;  // the sum limit's result, kept so that the sum is computed
LimitLoop limitLoop(const Tensor& input, bool readOnly) {
    static auto module = CppJit::instance().compile(kLimitLoops, "limits.cpp");
    static auto copy = reinterpret_cast<void (*)(const float*, float*, long)>(module->symbol("limit_copy"));
    static auto sum = reinterpret_cast<float (*)(const float*, long)>(module->symbol("limit_sum"));
    static std::map<long, std::vector<float>> destinations;  // per size
    if (input.dtype() != DType::Float32 || !input.isContiguous()) throw std::runtime_error("a limit needs a contiguous float32 input");
    const float* src = input.data<float>();
    long n = static_cast<long>(input.numel());
    if (readOnly) {
        return {[src, n] { limitSumSink = sum(src, n); }, static_cast<double>(n) * sizeof(float)};
    }
    std::vector<float>& dst = destinations.try_emplace(n, n).first->second;
    return {[src, &dst, n] {
                copy(src, dst.data(), n);
                if (dst[n - 1] != src[n - 1]) std::printf("the copy limit loop computed wrongly\n");
            },
            2.0 * n * sizeof(float)};
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
    std::string only = argc > 2 ? argv[2] : "";
    if (!CppJit::available()) {
        std::printf("%s: nothing to measure\n", CppJit::unavailableReason().c_str());
        return 0;
    }
    manualSeed(0);
    std::vector<Workload> workloads;
    auto dims = [](int64_t d) { return Argument::value(IValue::intList({d})); };
    auto lastDim = Argument::value(IValue(int64_t{-1}));
    workloads.push_back(pointwiseChain(16 << 20, false));
    workloads.push_back(pointwiseChain(16 << 20, true));
    workloads.push_back(unary("softmax 4096x4096", "softmax", {4096, 4096}, {lastDim}, 8.0 * 4096 * 4096));
    workloads.push_back(unary("log_softmax 4096x4096", "log_softmax", {4096, 4096}, {lastDim}, 8.0 * 4096 * 4096));
    workloads.push_back(layerNorm(8192, 1024));
    workloads.push_back(reduction("sum over 64M f32", "sum", {64 << 20}, {}));
    workloads.push_back(reduction("sum(dim=0) of 4096x4096 (columns)", "sum", {4096, 4096}, {dims(0)}));
    workloads.push_back(reduction("var(dim=1) of 4096x4096", "var", {4096, 4096}, {dims(1)}));
    workloads.push_back(reduction("argmax(dim=1) of 4096x4096", "argmax", {4096, 4096}, {Argument::value(IValue(int64_t{1}))}));
    workloads.push_back(moments(4096, 4096));
    workloads.push_back(linearGelu(4096, 1024, 1024));
    std::erase_if(workloads, [&](const Workload& w) { return w.name.find(only) == std::string::npos; });

    std::printf("Limits on %u threads, measured in turn with each row's compiled runs, over its first input:\n"
                "a copy loop (read + write) for maps, a sum loop (read-only) for reductions.\n\n", std::thread::hardware_concurrency());
    std::printf("%-40s %10s %12s %8s %9s %14s %9s\n", "workload", "eager ms", "compiled ms", "speedup", "GB/s", "limit GB/s", "of limit");
    for (auto& w : workloads) {
        LimitLoop limitRun = limitLoop(w.inputs.at(0), w.readOnly);
        CompiledGraph compiled = inductorBackend().compile(w.graph, CompileRequest{"0/0", "bench", "__compiled_fn_0", nullptr, nullptr});
        double eager = bestSeconds(repeats, [&] { runGraphEagerly(*w.graph, w.inputs); });
        auto [fast, limitSeconds] = bestSecondsInTurn(repeats, [&] { compiled(w.inputs); }, limitRun.run);
        double gbs = w.bytes / fast, limit = limitRun.bytesMoved / limitSeconds;
        std::printf("%-40s %10.2f %12.2f %7.2fx %9.1f %9.1f %-4s %8.0f%%\n", w.name.c_str(), eager * 1e3, fast * 1e3, eager / fast,
                    gbs / 1e9, limit / 1e9, w.readOnly ? "read" : "copy", 100 * gbs / limit);
    }
    if (!only.empty()) return 0;

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
