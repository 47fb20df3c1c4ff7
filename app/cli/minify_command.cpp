// fusescope-cli minify: shrinks the first failing compiled graph of a script to a minimal
// repro script (engine/session/minify_session.h).
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "backends/backend.h"
#include "cli_commands.h"
#include "session/minify_session.h"

namespace fusescope::cli {

int minifyCommand(const std::vector<std::string>& args) {
    MinifyRequest request;
    std::string script, out = "repro.py";
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--after" || a == "--backend" || a == "--out" || a == "--cuda-arch" || a == "--test-hook") {
            if (i + 1 >= args.size()) return usageError(a + " needs a value");
            const std::string& v = args[++i];
            if (a == "--after") request.after = v;
            else if (a == "--backend") request.options.backendOverride = v;
            else if (a == "--out") out = v;
            else if (a == "--cuda-arch") request.options.cudaArch = v;
            else if (auto error = enableTestHookOption(request.options.testHooks, v)) return usageError(*error);
        } else if (a == "--accuracy") {
            request.accuracy = true;
        } else if (a == "--gpu-codegen-only") {
            request.options.gpuCodegenOnly = true;
        } else if (!a.empty() && a[0] == '-') {
            return usageError("unknown option '" + a + "'");
        } else if (script.empty()) {
            script = a;
        } else {
            return usageError("more than one script given");
        }
    }
    if (script.empty()) return usageError("minify needs a SCRIPT");
    if (request.after != "dynamo" && request.after != "aot") return usageError("--after takes dynamo or aot, not '" + request.after + "'");
    const std::string& backend = request.options.backendOverride;
    if (!backend.empty() && !findBackend(backend))
        return usageError(unknownBackendMessage(backend));
    if (!CudaCompiler::validArch(request.options.cudaArch))
        return usageError("--cuda-arch takes a GPU architecture like sm_90, not '" + request.options.cudaArch + "'");

    std::string why;
    std::optional<std::string> source = readScript(script, why);
    if (!source) {
        std::cerr << "fusescope-cli: error: " << why << "\n";
        return 2;
    }
    request.source = std::move(*source);
    request.fileName = script;
    request.reproName = std::filesystem::path(out).filename().string();

    MinifyOptions options;
    options.progress = [](const std::string& line) { std::cerr << line << "\n"; };
    MinifyResult result;
    try {
        result = minifyScript(request, options);
    } catch (const Error& e) {
        std::cerr << "fusescope-cli: error: " << e.what() << "\n";
        return 1;
    }
    std::ofstream file(out, std::ios::binary | std::ios::trunc);
    if (!(file << result.repro)) {
        std::cerr << "fusescope-cli: error: cannot write '" << out << "'\n";
        return 1;
    }
    std::cerr << fmt::format("Wrote {} ({} nodes)\n", out, result.minified.endNodes);
    if (result.reproError.empty()) {
        std::cerr << "fusescope-cli: warning: " << out << " ran without failing: the failure needs more than this graph\n";
        return 1;
    }
    std::cerr << out << " reproduces it: " << result.reproError << "\n";
    return 0;
}

}  // namespace fusescope::cli
