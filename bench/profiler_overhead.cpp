// What recording a trace costs while scripts run (the GUI keeps it on): the same script run
// with SessionOptions::trace off, on (records streamed as trace_event events), and on with
// every trace_event serialised to JSON as the engine protocol does. Runs alternate and the
// best of each counts, so machine noise hits all alike. Usage: bench_profiler_overhead [repeats]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "session/script_session.h"
#include "toolchain/cpp_jit.h"

using namespace fusescope;
using Clock = std::chrono::steady_clock;

namespace {

// The 10-op pointwise chain of bench_inductor on 16M floats, called 40 times.
constexpr const char* kCompiledChain = R"(import torch

@torch.compile
def chain(x):
    y = x * 2.0
    y = y + 1.0
    y = torch.relu(y)
    y = y - 0.5
    y = y * y
    y = torch.abs(y)
    y = y + x
    y = y * 3.0
    y = -y
    return torch.maximum(y, x)

x = torch.randn(16777216)
for i in range(40):
    y = chain(x)
)";

// Eager ops on small tensors: where a per-op record costs the most, relatively.
constexpr const char* kEagerSmallOps = R"(import torch
x = torch.randn(64)
for i in range(2000):
    y = (x * 2.0 + 1.0).relu().sum()
)";

enum class Mode { Off, On, OnWithJson };

struct Result {
    double off = 1e30, on = 1e30, json = 1e30;
    size_t records = 0;
};

double runOnce(const char* script, Mode mode, size_t& records) {
    SessionOptions options;
    options.trace = mode != Mode::Off;
    ScriptSession session(options);
    size_t bytes = 0;
    records = 0;
    session.bus().subscribe([&](const Event& e) {
        if (!std::holds_alternative<TraceEvent>(e)) return;
        ++records;
        if (mode == Mode::OnWithJson) bytes += eventToJson(e).dump().size();
    });
    auto start = Clock::now();
    session.run(script, "bench.py");
    return std::chrono::duration<double>(Clock::now() - start).count();
}

Result measure(const char* script, int repeats) {
    Result r;
    size_t ignored = 0;
    runOnce(script, Mode::Off, ignored);  // warm-up: compiles into the disk cache
    for (int i = 0; i < repeats; ++i) {
        r.off = std::min(r.off, runOnce(script, Mode::Off, ignored));
        r.on = std::min(r.on, runOnce(script, Mode::On, r.records));
        r.json = std::min(r.json, runOnce(script, Mode::OnWithJson, ignored));
    }
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
    if (!CppJit::available()) std::printf("note: %s; the chain runs eagerly\n", CppJit::unavailableReason().c_str());
    std::printf("%-44s %8s %8s %9s %10s %9s %8s\n", "script", "off ms", "on ms", "overhead", "+json ms", "overhead", "records");
    for (auto [name, script] : {std::pair{"pointwise chain 16M f32, compiled, 40 calls", kCompiledChain},
                                std::pair{"eager small ops (64 floats), 2000 iterations", kEagerSmallOps}}) {
        Result r = measure(script, repeats);
        std::printf("%-44s %8.1f %8.1f %8.1f%% %10.1f %8.1f%% %8zu\n", name, r.off * 1e3, r.on * 1e3, 100 * (r.on / r.off - 1),
                    r.json * 1e3, 100 * (r.json / r.off - 1), r.records);
    }
    return 0;
}
