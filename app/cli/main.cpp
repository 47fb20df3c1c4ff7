// fusescope-cli: runs scripts headlessly. Each command lives in its own file
// (cli_commands.h); this file parses the command word and dispatches.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/backend.h"
#include "cli_commands.h"

namespace fusescope::cli {

const char* const kUsage =
    "usage: fusescope-cli run SCRIPT [--backend NAME] [--logs SPEC] [--logs-out FILE] [--events FILE.jsonl]\n"
    "                               [--debug-dir DIR] [--bundle FILE.fscope] [--report]\n"
    "                               [--gpu-codegen-only] [--cuda-arch sm_XX] [--check-accuracy]\n"
    "                               [--timeout SECONDS] [--memory-limit MIB]\n"
    "       fusescope-cli minify SCRIPT [--after dynamo|aot] [--accuracy] [--out FILE] [--backend NAME]\n"
    "                               [--gpu-codegen-only] [--cuda-arch sm_XX]\n"
    "       fusescope-cli torch-trace PATH [--rank N] [--report] [--events FILE.jsonl] [--bundle FILE.fscope]\n"
    "       fusescope-cli torch-trace DIR --all-ranks\n"
    "       fusescope-cli torch-trace PATH --follow [--idle SECONDS] [--rank N] [--report]\n"
    "       fusescope-cli bundle inspect FILE.fscope\n"
    "       fusescope-cli bundle extract FILE.fscope DIR\n"
    "       fusescope-cli serve [--memory-limit MIB]\n"
    "       (run, minify and serve also take [--test-hook NAME], see below)\n"
    "\n"
    "  run SCRIPT          run a PyTorch-style script; its prints go to stdout, logs to stderr\n"
    "  --backend NAME      compile every torch.compile'd function with NAME; default: what each\n"
    "                      torch.compile call names (inductor unless given). Bisect a wrong result\n"
    "                      with eager, aot_eager, aot_eager_decomp_partition, inductor: the first\n"
    "                      that goes wrong names the stage (docs/debugging-backends.md)\n"
    "  --logs SPEC         log settings, as TORCH_LOGS: e.g. recompiles,guards or +dynamo\n"
    "                      (default: $FUSESCOPE_LOGS, else $TORCH_LOGS)\n"
    "  --logs-out FILE     also write the log lines to FILE (default: $FUSESCOPE_LOGS_OUT)\n"
    "  --events FILE       write the engine's event stream as JSON lines\n"
    "  --debug-dir DIR     write a debug-trace folder per compiled graph into DIR (graphs, IR before\n"
    "                      and after fusion, fusion decisions, C++, LLVM IR, assembly); with\n"
    "                      FUSESCOPE_COMPILE_DEBUG=1 the default DIR is ./fusescope_debug\n"
    "  --bundle FILE       also export the run as a trace bundle (a zip: manifest, script, events,\n"
    "                      logs, debug-trace folders, execution and Chrome traces; docs/bundle.md)\n"
    "  --report            print a compile report (graphs, breaks, guards, recompiles) at the end\n"
    "  --gpu-codegen-only  run cuda tensors on the CPU, but generate and compile (to PTX and cubin)\n"
    "                      every CUDA kernel compiled graphs would launch: GPU code without a GPU\n"
    "  --cuda-arch ARCH    the GPU architecture CUDA kernels are compiled for (default sm_90)\n"
    "  --check-accuracy    compare every compiled graph's outputs with eager (and float64) on the same\n"
    "                      inputs; report the first output element that differs, with both values\n"
    "  --timeout SECONDS   stop the run once it has taken SECONDS, as Ctrl+C does (the outputs asked\n"
    "                      for are written; exit status 124); a run that does not stop within 10 s\n"
    "                      more (inside a C++ compile or a generated kernel) is ended there\n"
    "  --memory-limit MIB  cap the memory the engine may take: an allocation beyond it fails as in\n"
    "                      PyTorch (RuntimeError: DefaultCPUAllocator: not enough memory: ...) at\n"
    "                      its line, instead of the machine running out (run and serve; the\n"
    "                      workbench starts its engine with one, docs/protocol.md)\n"
    "\n"
    "  minify SCRIPT       run SCRIPT until a compiled graph fails (compile error, run-time error,\n"
    "                      or with --accuracy results that differ from eager), shrink that graph\n"
    "                      by delta debugging while it still fails, and write it with its inputs as\n"
    "                      a standalone script (--out, default ./repro.py) that fails the same way\n"
    "                      under fusescope-cli run and real PyTorch; --after aot shrinks the graph\n"
    "                      after AOT decompositions\n"
    "\n"
    "  torch-trace PATH    read a TORCH_TRACE log real PyTorch wrote (PATH: the folder TORCH_TRACE named,\n"
    "                      or one dedicated_log_torch_trace_*.log) into Fusescope's events; --rank N\n"
    "                      picks a rank's log; --report (the default) prints the compile report,\n"
    "                      --events and --bundle write the events and a bundle (docs/torch-trace.md);\n"
    "                      --all-ranks puts every rank of a distributed run side by side and names\n"
    "                      where the ranks first diverge; --follow reads a log a running program\n"
    "                      is still writing, a line per compile as PyTorch finishes it, until\n"
    "                      interrupted or, with --idle S, until the log has not grown for S seconds\n"
    "\n"
    "  bundle inspect FILE       check a bundle and print what it holds (compiles, guard failures,\n"
    "                            graph breaks, kernels, trace events, ...)\n"
    "  bundle extract FILE DIR   check a bundle, then unpack it into DIR (new or empty names only)\n"
    "\n"
    "  serve               speak the engine protocol (JSON lines) on stdin/stdout: run scripts,\n"
    "                      stream their events, explain fusion decisions, minify (docs/protocol.md)\n"
    "\n"
    "  --test-hook NAME    for testing Fusescope itself: plant a fault in every compile (repeatable):\n"
    "                      break-codegen, crash-in-generated-code, hang-in-generated-code,\n"
    "                      plant-bug=aot_decomposition|inductor_decomposition|lowering\n"
    "\n"
    "Exit status: 0 success, 1 script error, bad bundle or nothing to minify, 2 bad usage,\n"
    "124 --timeout, 128 + N stopped by signal N.\n";

int usageError(const std::string& message) {
    std::cerr << "fusescope-cli: error: " << message << "\n\n" << kUsage;
    return 2;
}

std::optional<std::string> envValue(const char* name) {
    const char* v = std::getenv(name);
    if (!v) return std::nullopt;
    return std::string(v);
}

std::optional<std::string> readScript(const std::string& path, std::string& why) {
    // A folder opens as an empty stream: say what it is rather than run nothing.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        why = fmt::format("cannot open script '{}': is a directory", path);
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = fmt::format("cannot open script '{}': {}", path, std::strerror(errno));
        return std::nullopt;
    }
    // Read in blocks up to a limit: /dev/zero or a runaway generated file would otherwise
    // take all memory.
    std::string text;
    char block[1 << 16];
    while (in.read(block, sizeof block) || in.gcount() > 0) {
        text.append(block, static_cast<size_t>(in.gcount()));
        if (text.size() > kMaxScriptBytes) {
            why = fmt::format("cannot read script '{}': it holds more than {} MiB, the most a script may", path, kMaxScriptBytes >> 20);
            return std::nullopt;
        }
    }
    if (in.bad()) {
        why = fmt::format("cannot read script '{}': {}", path, std::strerror(errno));
        return std::nullopt;
    }
    return text;
}

bool finishOutput(std::ostream& out, const std::string& what, int firstError) {
    out.flush();
    if (out) return true;
    const int error = firstError ? firstError : errno ? errno : EIO;
    std::cerr << "fusescope-cli: error: cannot write " << what << ": " << std::strerror(error) << " (it is incomplete)\n";
    return false;
}

std::string unknownBackendMessage(const std::string& name) {
    return fmt::format("unknown backend '{}'; available: {}", name, fmt::join(backendNames(), ", "));
}

std::optional<std::string> enableTestHookOption(TestHooks& hooks, const std::string& name) {
    try {
        enableTestHook(hooks, name);
        return std::nullopt;
    } catch (const fusescope::Error& e) {
        return std::string(e.what());
    }
}

}  // namespace fusescope::cli

int main(int argc, char** argv) {
    using namespace fusescope::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) return usageError("no command given");
    const std::string command = args[0];
    args.erase(args.begin());
    // `--help` anywhere (`fusescope-cli run --help`) asks for the usage, not a run.
    bool help = std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
    if (help || command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage;
        return 0;
    }
    if (command == "--version") {
        std::cout << "fusescope-cli 0.1.0\n";
        return 0;
    }
    if (command == "run") return runCommand(args);
    if (command == "bundle") return bundleCommand(args);
    if (command == "serve") return serveCommand(args);
    if (command == "minify") return minifyCommand(args);
    if (command == "torch-trace") return torchTraceCommand(args);
    return usageError("unknown command '" + command + "'");
}
