#pragma once
// One run of a script: the interpreter, the compile caches, the event bus and the logger,
// wired together. The CLI, the engine server and tests drive scripts through it.

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "backends/checked_compiler.h"
#include "core/random.h"
#include "capture/compile_manager.h"
#include "observe/debug_trace.h"
#include "observe/event.h"
#include "observe/log_registry.h"
#include "profile/profiler.h"
#include "script/interpreter.h"
#include "toolchain/cuda/cuda_compiler.h"

namespace fusescope {

struct SessionOptions {
    LogSettings logs;
    std::string backendOverride;  // non-empty: every compiled function uses this backend
    std::string debugDir;         // non-empty: write a debug-trace folder per compiled graph there
    std::string debugDirShown;    // debugDir as log lines name it, when it is moved there later ("": debugDir)
    bool trace = false;           // stream a trace_event per profiled span (ops, calls, kernels, compiles)
    // Run cuda tensors on the CPU while still generating and compiling every CUDA kernel
    // of the compiled graphs (core/device_context.h).
    bool gpuCodegenOnly = false;
    std::string cudaArch = CudaCompiler::kDefaultArch;  // the GPU architecture CUDA kernels are compiled for
    TestHooks testHooks;          // faults planted on purpose (core/test_hooks.h)
    CompilerLookup compilers;     // what a backend name stands for; empty: the registered backends
    // Compare every compiled graph's outputs with eager (backends/accuracy.h).
    bool checkAccuracy = false;
    // Past this many statements and comprehension items the script fails (0: no bound; the
    // script fuzzer's budget, Interpreter::setStepBudget).
    int64_t stepBudget = 0;
    // At the run's end, a graph_break_cost event for each pair of graphs a break kept apart
    // (the doctor: what each break cost, with the fusion it prevented).
    bool graphBreakCosts = false;
    // Told of every compiled graph that fails, with the graph and its inputs (the minifier).
    std::function<void(const GraphFailure&)> onGraphFailure;
    // The script's own modules sent with it by path (a remote engine's client, docs/remote.md):
    // its imports find them here before they look on the disk, under the client's paths.
    std::map<std::string, std::string> sentFiles;
};

class ScriptSession : public ScriptHost {
public:
    explicit ScriptSession(SessionOptions options);
    ~ScriptSession() override;

    // Consumers subscribe before run().
    EventBus& bus() { return bus_; }

    // Parses and runs a script. A script error is reported as an ErrorEvent and rethrown
    // (Error or ScriptError, with its location). The interpreter runs on a thread with a
    // large stack so deeply nested scripts fail with RecursionError, not a crash.
    void run(const std::string& source, const std::string& fileName);

    int compileCount() const { return compiler_.compileCount(); }
    int directCallCount() const { return compiler_.directCallCount(); }

    // Where the run's cuda tensors and compiled graphs ran: "cuda" when it used GPU memory,
    // else "cpu" (a bundle's manifest says it).
    std::string ranOn() const;

    // Why the debug-trace folders (SessionOptions::debugDir) could not be written, or "".
    std::string debugTraceError() const { return debugTrace_ ? debugTrace_->error() : std::string(); }

    // Asks the running script to stop (from any thread): it raises KeyboardInterrupt at its
    // next statement. A run of generated code is not interrupted.
    void cancel() { cancelled_ = true; }
    bool cancelRequested() const override { return cancelled_; }

    // ScriptHost
    void writeStdout(const std::string& text) override;
    void moduleImported(const std::string& file, const std::string& path, const std::string& source) override;
    Value callCompiled(Interpreter& interp, CompiledFunctionObject& fn, CallArgs& args) override;
    Value explain(Interpreter& interp, const Value& fn, CallArgs& args) override;
    void resetDynamo() override;
    void compiledFunctionMade() override { compiler_.forgetLoggedBreaks(); }
    std::string setCompileStance(const std::string& stance) override { return compiler_.setStance(stance); }
    void setLogs(const CallArgs& args) override;

private:
    // The doctor's graph_break_cost events (SessionOptions::graphBreakCosts).
    void reportGraphBreakCosts();
    const GraphCompiler* checkedBackend(const std::string& name);

    SessionOptions options_;
    EventBus bus_;
    Logger logger_;
    // Every backend wrapped for failure reports and accuracy checks, made on first use; they
    // outlive the compiled graphs that compiler_ caches.
    std::map<std::string, std::unique_ptr<CheckedCompiler>> checkedBackends_;
    CompileManager compiler_;
    std::unique_ptr<DebugTraceWriter> debugTrace_;
    std::unique_ptr<FunctionTraceSink> traceSink_;  // the trace stream, one of trace_'s sinks
    ProfilerContext trace_;  // where its records go (the script's profilers attach here too), their ids
    std::atomic<bool> cancelled_ = false;
    size_t gpuBlocksBeforeRun_ = 0;
    RandomGenerator random_;  // torch.manual_seed's: each session starts from seed 0
};

// Hands `session` to `setRunning` for as long as it lives (then null), so whoever holds
// the slot can cancel the run; an empty slot is fine.
class RunningSession {
public:
    RunningSession(const std::function<void(ScriptSession*)>& setRunning, ScriptSession& session) : set_(setRunning) {
        if (set_) set_(&session);
    }
    ~RunningSession() {
        if (set_) set_(nullptr);
    }
    RunningSession(const RunningSession&) = delete;
    RunningSession& operator=(const RunningSession&) = delete;

private:
    const std::function<void(ScriptSession*)>& set_;
};

// Describes a script error for a terminal: "script.py:4:12: error: TypeError: ...", then
// " (raised in torch/nn.py:535:16)" for an error out of the script library.
std::string describeError(const Error& error);

}  // namespace fusescope
