// fusescope-cli: runs scripts headlessly. `run` executes a script and prints its output
// on stdout and the engine's logs on stderr.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/backend.h"
#include "observe/compile_report.h"
#include "observe/log_registry.h"
#include "session/script_session.h"

namespace {

using namespace fusescope;

constexpr const char* kUsage =
    "usage: fusescope-cli run SCRIPT [--backend NAME] [--logs SPEC] [--logs-out FILE] [--events FILE.jsonl]\n"
    "                               [--debug-dir DIR] [--report]\n"
    "\n"
    "  run SCRIPT          run a PyTorch-style script; its prints go to stdout, logs to stderr\n"
    "  --backend NAME      compile every torch.compile'd function with NAME (eager, inductor);\n"
    "                      default: what each torch.compile call names (inductor unless given)\n"
    "  --logs SPEC         log settings, as TORCH_LOGS: e.g. recompiles,guards or +dynamo\n"
    "                      (default: $FUSESCOPE_LOGS)\n"
    "  --logs-out FILE     also write the log lines to FILE (default: $FUSESCOPE_LOGS_OUT)\n"
    "  --events FILE       write the engine's event stream as JSON lines\n"
    "  --debug-dir DIR     write a debug-trace folder per compiled graph into DIR (graphs, IR before\n"
    "                      and after fusion, fusion decisions, C++, LLVM IR, assembly); with\n"
    "                      FUSESCOPE_COMPILE_DEBUG=1 the default DIR is ./fusescope_debug\n"
    "  --report            print a compile report (graphs, breaks, guards, recompiles) at the end\n"
    "\n"
    "Exit status: 0 success, 1 script error, 2 bad usage.\n";

int usageError(const std::string& message) {
    std::cerr << "fusescope-cli: error: " << message << "\n\n" << kUsage;
    return 2;
}

struct RunArgs {
    std::string script;
    std::string backend;
    std::optional<std::string> logs;
    std::optional<std::string> logsOut;
    std::string events;
    std::string debugDir;
    bool report = false;
};

std::optional<std::string> envValue(const char* name) {
    const char* v = std::getenv(name);
    if (!v) return std::nullopt;
    return std::string(v);
}

int runScript(const RunArgs& args) {
    std::ifstream in(args.script, std::ios::binary);
    if (!in) {
        std::cerr << "fusescope-cli: error: cannot open script '" << args.script << "'\n";
        return 2;
    }
    std::stringstream source;
    source << in.rdbuf();

    SessionOptions options;
    std::string spec = args.logs ? *args.logs : envValue("FUSESCOPE_LOGS").value_or("");
    try {
        options.logs = LogSettings::parse(spec);
    } catch (const Error& e) {
        std::cerr << "fusescope-cli: error: " << e.what() << "\n";
        return 2;
    }
    if (!args.backend.empty()) {
        if (!findBackend(args.backend))
            return usageError("unknown backend '" + args.backend + "'; available: eager, inductor");
        options.backendOverride = args.backend;
    }
    options.debugDir = args.debugDir;
    if (options.debugDir.empty() && envValue("FUSESCOPE_COMPILE_DEBUG").value_or("0") == "1") options.debugDir = "fusescope_debug";

    std::ofstream logsOut;
    std::string logsOutPath = args.logsOut ? *args.logsOut : envValue("FUSESCOPE_LOGS_OUT").value_or("");
    if (!logsOutPath.empty()) {
        logsOut.open(logsOutPath, std::ios::binary | std::ios::trunc);
        if (!logsOut) {
            std::cerr << "fusescope-cli: error: cannot write log file '" << logsOutPath << "'\n";
            return 2;
        }
    }
    std::ofstream events;
    if (!args.events.empty()) {
        events.open(args.events, std::ios::binary | std::ios::trunc);
        if (!events) {
            std::cerr << "fusescope-cli: error: cannot write events file '" << args.events << "'\n";
            return 2;
        }
    }

    ScriptSession session(std::move(options));
    auto writeErr = [&](const std::string& text) {
        std::cout.flush();
        std::cerr << text;
        std::cerr.flush();
        if (logsOut.is_open()) {
            logsOut << text;
            logsOut.flush();
        }
    };
    CompileReport report;
    session.bus().subscribe([&](const Event& event) {
        report.consume(event);
        if (const auto* log = std::get_if<LogEvent>(&event)) writeErr(log->formatted() + "\n");
        if (const auto* out = std::get_if<ScriptOutputEvent>(&event)) std::cout << out->text;
        if (events.is_open()) events << eventToJson(event).dump() << "\n";
    });

    std::string fileName = args.script;
    try {
        session.run(source.str(), fileName);
    } catch (const Error& e) {
        std::cout.flush();
        std::cerr << describeError(e) << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cout.flush();
        std::cerr << "fusescope-cli: internal error: " << e.what() << "\n";
        return 1;
    }
    std::cout.flush();
    if (args.report) writeErr("\n" + report.render());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) return usageError("no command given");
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << kUsage;
        return 0;
    }
    if (args[0] == "--version") {
        std::cout << "fusescope-cli 0.1.0\n";
        return 0;
    }
    if (args[0] != "run") return usageError("unknown command '" + args[0] + "'");
    RunArgs run;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* flag) -> std::optional<std::string> {
            if (i + 1 >= args.size()) return std::nullopt;
            (void)flag;
            return args[++i];
        };
        if (a == "--backend" || a == "--logs" || a == "--logs-out" || a == "--events" || a == "--debug-dir") {
            auto v = value(a.c_str());
            if (!v) return usageError(a + " needs a value");
            if (a == "--backend") run.backend = *v;
            else if (a == "--logs") run.logs = *v;
            else if (a == "--logs-out") run.logsOut = *v;
            else if (a == "--debug-dir") run.debugDir = *v;
            else run.events = *v;
        } else if (a == "--report") {
            run.report = true;
        } else if (!a.empty() && a[0] == '-') {
            return usageError("unknown option '" + a + "'");
        } else if (run.script.empty()) {
            run.script = a;
        } else {
            return usageError("more than one script given");
        }
    }
    if (run.script.empty()) return usageError("run needs a SCRIPT");
    return runScript(run);
}
