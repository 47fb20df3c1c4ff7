// Measures what capture costs per call: the same small function called N times, eagerly
// and through torch.compile(backend="eager") (guard checks + replay tracing + running the
// graph through the op registry). Prints the ratio compiled/eager, both measured in this
// run, so the number is comparable across noisy machines. The last case passes a new float
// each call (a scale, a temperature): what recompiles, or reuses one graph, costs.
#include <chrono>
#include <cstdio>
#include <string>

#include "session/script_session.h"

namespace {

// `scaleEachCall`: block's scale is an argument, another float on each call.
std::string script(bool compiled, int calls, int size, bool scaleEachCall = false) {
    std::string decorator = compiled ? "@torch.compile(backend=\"eager\")\n" : "";
    const std::string n = std::to_string(calls);
    return "import torch\n"
           "import torch.nn.functional as F\n"
           "w = torch.linspace(-1.0, 1.0, " + std::to_string(size * size) + ").view(" + std::to_string(size) + ", " +
           std::to_string(size) + ")\n" + decorator +
           "def block(x, scale=0.5):\n"
           "    h = F.gelu(x @ w) * scale + x\n"
           "    return F.layer_norm(h, (h.shape[-1],)).sum()\n"
           "x = torch.ones(8, " + std::to_string(size) + ")\n"
           "for i in range(" + n + "):\n" +
           (scaleEachCall ? "    block(x, 0.5 + i / " + n + ")\n" : "    block(x)\n");
}

double secondsToRun(const std::string& source) {
    fusescope::ScriptSession session({});
    auto start = std::chrono::steady_clock::now();
    session.run(source, "bench.py");
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    int calls = argc > 1 ? std::stoi(argv[1]) : 2000;
    secondsToRun(script(false, 10, 16));  // warm-up: the first session's one-time costs fall on no case
    std::printf("%-28s %10s %10s %8s\n", "case", "eager s", "compiled s", "ratio");
    for (int size : {16, 128}) {
        double eager = secondsToRun(script(false, calls, size));
        double compiled = secondsToRun(script(true, calls, size));
        std::printf("block(x[8,%d]) x %d calls %10.3f %10.3f %8.2f\n", size, calls, eager, compiled, compiled / eager);
    }
    double eager = secondsToRun(script(false, calls, 16, true));
    double compiled = secondsToRun(script(true, calls, 16, true));
    std::printf("block(x[8,16], new scale) x %d %10.3f %10.3f %8.2f\n", calls, eager, compiled, compiled / eager);
    return 0;
}
