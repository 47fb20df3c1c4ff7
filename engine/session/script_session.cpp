#include "session/script_session.h"

#include <pthread.h>

#include <exception>

#include <fmt/format.h>

#include "backends/backend.h"
#include "backends/break_fusion.h"
#include "core/cancellation.h"
#include "core/device_context.h"
#include "runtime/cuda_availability.h"
#include "script/parser.h"

namespace fusescope {

namespace {

constexpr size_t kInterpreterStackBytes = 512u << 20;  // deep scripts hit RecursionError first

// Runs fn on a thread with a large stack and rethrows what it threw.
void runWithLargeStack(const std::function<void()>& fn) {
    struct Job {
        const std::function<void()>* fn;
        std::exception_ptr error;
    } job{&fn, nullptr};
    auto entry = [](void* p) -> void* {
        auto* j = static_cast<Job*>(p);
        try {
            (*j->fn)();
        } catch (...) {
            j->error = std::current_exception();
        }
        return nullptr;
    };
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kInterpreterStackBytes);
    pthread_t thread;
    if (pthread_create(&thread, &attr, entry, &job) != 0) {
        pthread_attr_destroy(&attr);
        fn();  // no thread to be had: run here
        return;
    }
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    if (job.error) std::rethrow_exception(job.error);
}

}  // namespace

std::string describeError(const Error& error) {
    std::string message = error.what();
    if (const auto* se = dynamic_cast<const ScriptError*>(&error); se && !se->kind().empty()) {
        message = se->kind() + (message.empty() ? "" : ": " + message);
        if (!se->note().empty()) message += " (" + se->note() + ")";
    }
    std::string where = error.where().known() ? error.where().str() + ": " : "";
    std::string raised = error.raisedIn().known() ? " (raised in " + error.raisedIn().str() + ")" : "";
    return where + "error: " + message + raised;
}

ScriptSession::ScriptSession(SessionOptions options)
    : options_(std::move(options)),
      logger_(bus_, options_.logs),
      compiler_(logger_, bus_, [this](const std::string& name) { return checkedBackend(name); },
                fmt::format("{}", fmt::join(backendNames(), ", ")), CompileSettings{options_.cudaArch, options_.testHooks}) {
    if (!options_.debugDir.empty()) {
        debugTrace_ = std::make_unique<DebugTraceWriter>(options_.debugDir, logger_, options_.debugDirShown);
        bus_.subscribe([this](const Event& e) { debugTrace_->consume(e); });
    }
    if (options_.trace) {
        traceSink_ = std::make_unique<FunctionTraceSink>([this](const TraceRecord& r) { bus_.emit(TraceEvent{r}); });
        trace_.attached.push_back(traceSink_.get());
    }
}

ScriptSession::~ScriptSession() = default;

const GraphCompiler* ScriptSession::checkedBackend(const std::string& name) {
    auto& checked = checkedBackends_[name];
    if (!checked) {
        const GraphCompiler* backend = options_.compilers ? options_.compilers(name) : findBackend(name);
        if (!backend) return nullptr;
        checked = std::make_unique<CheckedCompiler>(*backend, CheckOptions{options_.checkAccuracy, options_.onGraphFailure});
    }
    return checked.get();
}

void ScriptSession::run(const std::string& source, const std::string& fileName) {
    gpuBlocksBeforeRun_ = cudaBlocksHandedOut();
    DeviceContext devices;  // GPU code generation only: cuda tensors live on the CPU
    devices.cudaUnavailableReason = options_.gpuCodegenOnly ? "" : cudaRuntimeUnavailableReason();
    devices.cudaOnHost = options_.gpuCodegenOnly;
    try {
        runWithLargeStack([&] {
            DeviceContextScope deviceScope(devices);    // the script's ops see this session's devices
            RandomGeneratorScope randomScope(random_);  // ... and draw from its generator
            CancellationScope cancellable(cancelled_);  // long eager kernels poll it
            ProfilerContextScope traceScope(trace_);       // its records go to its sinks only
            std::unique_ptr<Module> module = parseScript(source, fileName);
            Interpreter interpreter(*module, *this);
            interpreter.setStepBudget(options_.stepBudget);
            interpreter.setSentFiles(&options_.sentFiles);
            interpreter.run();
        });
    } catch (const Error& e) {
        bus_.emit(ErrorEvent{describeError(e), e.where()});
        reportGraphBreakCosts();  // what ran until the error was measured as well
        throw;
    }
    reportGraphBreakCosts();
}

void ScriptSession::reportGraphBreakCosts() {
    if (!options_.graphBreakCosts) return;
    const CompileSettings settings{options_.cudaArch, options_.testHooks};
    for (const SplitGraphs& split : compiler_.splitGraphs()) {
        const Segment& before = *split.before;
        const Segment& after = *split.after;
        GraphBreakCostEvent e{split.compileId, split.function, before.breakReason, before.breakStack, before.name, after.name,
                              before.graph->opCount(), after.graph->opCount(), split.timing.calls,
                              static_cast<double>(split.timing.ns) * 1e-9, before.compileSeconds, after.compileSeconds};
        std::optional<int> kernelsBefore = scheduledKernelCount(*before.graph, settings);
        std::optional<int> kernelsAfter = scheduledKernelCount(*after.graph, settings);
        std::optional<int> joined;
        if (kernelsBefore && kernelsAfter)
            joined = scheduledKernelCount(*joinAcrossBreak(*before.graph, *after.graph, split.afterReads), settings);
        e.kernelsBefore = kernelsBefore.value_or(-1);
        e.kernelsAfter = kernelsAfter.value_or(-1);
        e.kernelsJoined = joined.value_or(-1);
        bus_.emit(e);
    }
}

std::string ScriptSession::ranOn() const { return cudaBlocksHandedOut() > gpuBlocksBeforeRun_ ? "cuda" : "cpu"; }

void ScriptSession::writeStdout(const std::string& text) { bus_.emit(ScriptOutputEvent{text}); }

void ScriptSession::moduleImported(const std::string& file, const std::string& path, const std::string& source) {
    bus_.emit(ModuleImportedEvent{file, path, source});
}

Value ScriptSession::callCompiled(Interpreter& interp, CompiledFunctionObject& fn, CallArgs& args) {
    if (options_.backendOverride.empty()) return compiler_.call(interp, fn, args);
    CompiledFunctionObject effective = fn;
    effective.options.namedBackend = fn.options.backend;
    effective.options.backend = options_.backendOverride;
    return compiler_.call(interp, effective, args);
}

Value ScriptSession::explain(Interpreter& interp, const Value& fn, CallArgs& args) {
    Value result;
    ExplainReport report = compiler_.explain(interp, *fn.as<FunctionObject>(), args, result);
    auto out = std::make_shared<RecordObject>();
    out->type = "ExplainOutput";
    out->text = report.text();
    ValueList opsPerGraph;
    for (const auto& g : report.graphs) {
        ValueList ops;
        for (const Node* n : ExplainReport::ops(*g)) ops.push_back(Value(n->target));
        opsPerGraph.push_back(makeList(ops));
    }
    ValueList reasons;
    for (const BreakRecord* b : report.countedBreaks()) {
        auto r = std::make_shared<RecordObject>();
        r->type = "GraphCompileReason";
        r->text = b->why.explainText();
        r->attrs["reason"] = Value(r->text);
        ValueList stack;
        for (const auto& f : b->explainStack) stack.push_back(Value(f.str()));
        r->attrs["user_stack"] = makeList(stack);
        reasons.push_back(Value(ObjectPtr(r)));
    }
    ValueList guards;
    for (const auto& g : report.guards) guards.push_back(Value(g.str()));
    out->attrs["graph_count"] = Value(static_cast<int64_t>(report.graphs.size()));
    out->attrs["graph_break_count"] = Value(static_cast<int64_t>(reasons.size()));
    out->attrs["op_count"] = Value(int64_t{report.opCount()});
    out->attrs["break_reasons"] = makeList(reasons);
    out->attrs["ops_per_graph"] = makeList(opsPerGraph);
    out->attrs["out_guards"] = makeList(guards);
    out->attrs["compile_times"] = Value(fmt::format("{:.4f}", report.compileSeconds));
    return Value(ObjectPtr(out));
}

void ScriptSession::resetDynamo() { compiler_.reset(); }

void ScriptSession::setLogs(const CallArgs& args) {
    const LogRegistry& registry = LogRegistry::instance();
    LogSettings settings;
    for (const auto& [name, value] : args.kwargs) {
        if (registry.isComponent(name)) {
            if (value.isNone()) continue;
            if (!value.isInt())
                throw ScriptError("ValueError", fmt::format("Expected a logging level for component {}, received {}",
                                                            name, valueRepr(value)));
            int64_t level = value.asInt();
            settings.setComponentLevel(name, level <= 10   ? LogLevel::Debug
                                             : level <= 20 ? LogLevel::Info
                                             : level <= 30 ? LogLevel::Warning
                                                           : LogLevel::Error);
        } else if (registry.findArtifact(name)) {
            if (!value.isBool())
                throw ScriptError("ValueError", fmt::format("Expected bool to enable artifact {}, received {}", name,
                                                            valueRepr(value)));
            if (value.asBool()) settings.enableArtifact(name);
        } else {
            throw ScriptError("ValueError", fmt::format("Unrecognized log or artifact name passed to set_logs: {}. "
                                                        "Valid names: {}",
                                                        name, registry.validNames()));
        }
    }
    logger_.settings() = settings;
}

}  // namespace fusescope
