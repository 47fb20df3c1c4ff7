// fusescope-cli run: executes a script, its prints on stdout and the engine's logs on stderr.
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "backends/backend.h"
#include "bundle/bundle_recorder.h"
#include "bundle/bundle_writer.h"
#include "bundle/zip_archive.h"
#include "cli_commands.h"
#include "crash_report.h"
#include "core/json_text.h"
#include "observe/compile_report.h"
#include "observe/log_registry.h"
#include "output_paths.h"
#include "session/script_session.h"
#include "toolchain/cuda/cuda_compiler.h"

namespace fusescope::cli {

namespace {

// sys.exit(code) (SystemExit) ends the run as Python's does: with status 0 for no code,
// that status for an int, else 1 after printing the code on stderr. Nullopt: another error.
std::optional<int> systemExitStatus(const Error& error) {
    const auto* script = dynamic_cast<const ScriptError*>(&error);
    if (!script || script->kind() != "SystemExit") return std::nullopt;
    const std::string code = script->what();
    if (code.empty() || code == "None") return 0;
    if (code.find_first_not_of("-0123456789") == std::string::npos && code != "-") return std::atoi(code.c_str());
    std::cerr << code << "\n";
    return 1;
}

struct RunArgs {
    std::string script;
    std::string backend;
    std::optional<std::string> logs;
    std::optional<std::string> logsOut;
    std::string events;
    std::string debugDir;
    std::string bundle;
    bool report = false;
    bool gpuCodegenOnly = false;
    bool checkAccuracy = false;
    std::optional<double> timeoutSeconds;
    std::string cudaArch = CudaCompiler::kDefaultArch;
    TestHooks testHooks;
};

// Ctrl+C and SIGTERM: the first asks the run to stop at its next safe point (its next
// statement, or a long eager kernel's next block) so that the events, logs and bundle asked
// for are still written; a second ends the process at once.
std::atomic<ScriptSession*> interruptibleSession{nullptr};
volatile std::sig_atomic_t interruptedBy = 0;

void onInterrupt(int signal) {
    if (interruptedBy) {
        std::signal(signal, SIG_DFL);
        std::raise(signal);
        return;
    }
    interruptedBy = signal;
    if (ScriptSession* session = interruptibleSession.load()) session->cancel();  // an atomic store
}

// Handles SIGINT and SIGTERM while it lives, for `session`.
class InterruptHandler {
public:
    explicit InterruptHandler(ScriptSession& session) {
        interruptibleSession = &session;
        struct sigaction action {};
        action.sa_handler = onInterrupt;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &previousInt_);
        sigaction(SIGTERM, &action, &previousTerm_);
    }
    ~InterruptHandler() {
        sigaction(SIGINT, &previousInt_, nullptr);
        sigaction(SIGTERM, &previousTerm_, nullptr);
        interruptibleSession = nullptr;
    }
    InterruptHandler(const InterruptHandler&) = delete;
    InterruptHandler& operator=(const InterruptHandler&) = delete;

private:
    struct sigaction previousInt_ {}, previousTerm_ {};
};

// --timeout: once the run has taken its seconds, asks it to stop as Ctrl+C does (at its
// next statement, or a long eager kernel's next block), so the outputs asked for are still
// written. A run that has not stopped kGraceSeconds later is inside something that does
// not poll (a C++ compile, a generated kernel): the process ends there, as timeout(1) ends
// a command, with its status 124.
class Watchdog {
public:
    static constexpr int kGraceSeconds = 10;

    Watchdog(ScriptSession& session, std::optional<double> seconds) {
        if (!seconds) return;
        thread_ = std::thread([this, &session, seconds = *seconds] {
            std::unique_lock lock(mutex_);
            if (wake_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return finished_; })) return;
            fired_ = true;
            session.cancel();
            if (wake_.wait_for(lock, std::chrono::seconds(kGraceSeconds), [this] { return finished_; })) return;
            std::cerr << "fusescope-cli: error: the run did not stop within " << kGraceSeconds
                      << " s of its --timeout; ended without writing its outputs\n";
            std::_Exit(124);
        });
    }
    ~Watchdog() { finish(); }
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    // The run has returned: the watchdog stands down.
    void finish() {
        {
            std::lock_guard lock(mutex_);
            finished_ = true;
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
    }
    bool fired() const { return fired_; }

private:
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool finished_ = false;
    std::atomic<bool> fired_{false};
};

int runScript(const RunArgs& args) {
    std::string why;
    std::optional<std::string> source = readScript(args.script, why);
    if (!source) {
        std::cerr << "fusescope-cli: error: " << why << "\n";
        return 2;
    }

    SessionOptions options;
    // TORCH_LOGS too, as a PyTorch user sets it (and PyTorch's own messages advise).
    std::string spec = args.logs ? *args.logs : envValue("FUSESCOPE_LOGS").value_or(envValue("TORCH_LOGS").value_or(""));
    try {
        options.logs = LogSettings::parse(spec);
    } catch (const Error& e) {
        std::cerr << "fusescope-cli: error: " << e.what() << "\n";
        return 2;
    }
    if (!args.backend.empty()) {
        if (!findBackend(args.backend))
            return usageError(unknownBackendMessage(args.backend));
        options.backendOverride = args.backend;
    }
    if (!args.bundle.empty()) {
        if (!zipAvailable()) {
            std::cerr << "fusescope-cli: error: " << zipUnavailableReason() << "\n";
            return 1;
        }
        options.trace = true;  // the bundle's trace files are built from the trace_event stream
    }
    options.debugDir = args.debugDir;
    options.gpuCodegenOnly = args.gpuCodegenOnly;
    options.cudaArch = args.cudaArch;
    options.testHooks = args.testHooks;
    options.checkAccuracy = args.checkAccuracy;
    options.graphBreakCosts = args.report || !args.bundle.empty();  // the report ranks them; a bundle keeps them
    if (options.debugDir.empty() && envValue("FUSESCOPE_COMPILE_DEBUG").value_or("0") == "1") options.debugDir = "fusescope_debug";

    std::ofstream logsOut;
    std::string logsOutPath = args.logsOut ? *args.logsOut : envValue("FUSESCOPE_LOGS_OUT").value_or("");
    if (auto refused = refusedOutput({{"--events", args.events}, {"--logs-out", logsOutPath}, {"--bundle", args.bundle, true}}, {args.script})) {
        std::cerr << "fusescope-cli: error: " << *refused << "\n";
        return 2;
    }
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
    int eventsError = 0, logsOutError = 0, stdoutError = 0;  // the errno of each output's first failed write
    auto writeErr = [&](const std::string& text) {
        std::cout.flush();
        std::cerr << text;
        std::cerr.flush();
        if (logsOut.is_open()) {
            logsOut << text;
            logsOut.flush();
            noteWriteFailure(logsOut, logsOutError);
        }
    };
    CompileReport report;
    BundleRecorder bundle;
    session.bus().subscribe([&](const Event& event) {
        if (!args.bundle.empty()) bundle.consume(event);
        report.consume(event);
        if (const auto* log = std::get_if<LogEvent>(&event)) writeErr(log->formatted() + "\n");
        if (const auto* out = std::get_if<ScriptOutputEvent>(&event)) {
            // Flushed at once: a crash in generated code must not take what was printed with it.
            std::cout << out->text;
            std::cout.flush();
            noteWriteFailure(std::cout, stdoutError);
        }
        if (events.is_open()) {
            events << jsonText(eventToJson(event)) << "\n";
            noteWriteFailure(events, eventsError);
        }
    });

    std::string fileName = args.script;
    int status = 0;
    Watchdog watchdog(session, args.timeoutSeconds);
    try {
        InterruptHandler interrupts(session);
        reportCrashesInGeneratedCode();
        session.run(*source, fileName);
    } catch (const Error& e) {
        std::cout.flush();
        if (auto exited = systemExitStatus(e)) {
            status = *exited;
        } else {
            std::cerr << describeError(e) << "\n";
            status = 1;
        }
    } catch (const std::exception& e) {
        std::cout.flush();
        std::cerr << "fusescope-cli: internal error: " << e.what() << "\n";
        status = 1;
    }
    watchdog.finish();
    std::cout.flush();
    if (watchdog.fired() && !interruptedBy) {
        // Where it stopped is the KeyboardInterrupt's location, printed above.
        std::cerr << "fusescope-cli: stopped by --timeout " << fmt::format("{:g}", *args.timeoutSeconds)
                  << " s; the outputs asked for are written\n";
        status = 124;
    }
    if (interruptedBy) {
        // Where it stopped is the KeyboardInterrupt's location, printed above.
        std::cerr << "fusescope-cli: stopped by " << (interruptedBy == SIGINT ? "SIGINT (Ctrl+C)" : "SIGTERM")
                  << "; the outputs asked for are written\n";
        status = 128 + interruptedBy;
    }
    if (status == 0 && args.report) writeErr("\n" + report.render());
    // A failed run is bundled too: its events say how far it got.
    if (!args.bundle.empty()) {
        nlohmann::json runOptions = {{"backend", args.backend}, {"logs", spec}, {"trace", true},
                                     {"gpu_codegen_only", args.gpuCodegenOnly}, {"cuda_arch", args.cudaArch},
                                     {"check_accuracy", args.checkAccuracy}};
        try {
            writeBundle(args.bundle, bundle.entries(makeManifest(args.script, session.ranOn(), runOptions), *source));
        } catch (const Error& e) {
            std::cerr << "fusescope-cli: error: " << e.what() << "\n";
            status = 1;
        } catch (const std::bad_alloc&) {
            std::cerr << "fusescope-cli: error: cannot write bundle '" << args.bundle << "': out of memory\n";
            status = 1;
        }
    }
    bool written = finishOutput(std::cout, "the script's output (stdout)", stdoutError);
    if (events.is_open()) written = finishOutput(events, "events file '" + args.events + "'", eventsError) && written;
    if (logsOut.is_open()) written = finishOutput(logsOut, "log file '" + logsOutPath + "'", logsOutError) && written;
    if (!session.debugTraceError().empty()) {
        std::cerr << "fusescope-cli: error: " << session.debugTraceError() << "\n";
        written = false;
    }
    return !written && status == 0 ? 1 : status;
}

}  // namespace

int runCommand(const std::vector<std::string>& args) {
    RunArgs run;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* flag) -> std::optional<std::string> {
            if (i + 1 >= args.size()) return std::nullopt;
            (void)flag;
            return args[++i];
        };
        if (a == "--timeout") {
            auto v = value(a.c_str());
            if (!v) return usageError("--timeout needs a value");
            char* end = nullptr;
            double seconds = std::strtod(v->c_str(), &end);
            if (v->empty() || *end != '\0' || !(seconds > 0) || seconds > 1e9)
                return usageError("--timeout takes a number of seconds above 0, not '" + *v + "'");
            run.timeoutSeconds = seconds;
        } else if (a == "--memory-limit") {
            auto v = value(a.c_str());
            if (!v) return usageError("--memory-limit needs a value");
            if (auto error = applyMemoryLimitOption(*v)) return usageError(*error);
        } else if (a == "--backend" || a == "--logs" || a == "--logs-out" || a == "--events" || a == "--debug-dir" ||
            a == "--bundle" || a == "--cuda-arch" || a == "--test-hook") {
            auto v = value(a.c_str());
            if (!v) return usageError(a + " needs a value");
            if (a == "--backend") run.backend = *v;
            else if (a == "--logs") run.logs = *v;
            else if (a == "--logs-out") run.logsOut = *v;
            else if (a == "--debug-dir") run.debugDir = *v;
            else if (a == "--bundle") run.bundle = *v;
            else if (a == "--cuda-arch") run.cudaArch = *v;
            else if (a == "--test-hook") {
                if (auto error = enableTestHookOption(run.testHooks, *v)) return usageError(*error);
            }
            else run.events = *v;
        } else if (a == "--report") {
            run.report = true;
        } else if (a == "--gpu-codegen-only") {
            run.gpuCodegenOnly = true;
        } else if (a == "--check-accuracy") {
            run.checkAccuracy = true;
        } else if (!a.empty() && a[0] == '-') {
            return usageError("unknown option '" + a + "'");
        } else if (run.script.empty()) {
            run.script = a;
        } else {
            return usageError("more than one script given");
        }
    }
    if (run.script.empty()) return usageError("run needs a SCRIPT");
    if (!CudaCompiler::validArch(run.cudaArch)) return usageError("--cuda-arch takes a GPU architecture like sm_90, not '" + run.cudaArch + "'");
    return runScript(run);
}

}  // namespace fusescope::cli
