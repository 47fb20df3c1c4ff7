#include "capture/compile_manager.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "capture/guard_tree.h"
#include "capture/shape_guard_function.h"
#include "core/grad_mode.h"
#include "graph/graph_printer.h"
#include "profile/profiler.h"
#include "script/ast.h"
#include "script/torch_lines.h"

namespace fusescope {

namespace {

using Clock = std::chrono::steady_clock;

const Value* resolveSource(const Source& source, const std::map<std::string, Value>& locals,
                           const Interpreter& interp) {
    switch (source.kind) {
    case Source::Kind::Local: {
        auto it = locals.find(source.name);
        return it == locals.end() ? nullptr : &it->second;
    }
    case Source::Kind::Global: return interp.global(source.name);
    case Source::Kind::Item: {
        const Value* base = resolveSource(*source.base, locals, interp);
        const ValueList* items = base ? sequenceItems(*base) : nullptr;
        if (!items || source.index < 0 || source.index >= static_cast<int64_t>(items->size())) return nullptr;
        return &(*items)[static_cast<size_t>(source.index)];
    }
    case Source::Kind::Attr: {  // an instance attribute, read from its __dict__ (no script code runs), or a module's
        const Value* base = resolveSource(*source.base, locals, interp);
        if (auto* module = base ? base->as<ModuleObject>() : nullptr) return module->find(source.name);
        if (auto* fn = base ? base->as<FunctionObject>() : nullptr) return source.name == "__defaults__" ? &fn->defaultsTuple() : nullptr;
        auto* instance = base ? base->as<InstanceObject>() : nullptr;
        return instance ? instance->dict->findString(source.name) : nullptr;
    }
    case Source::Kind::Key: {
        if (source.base->kind == Source::Kind::Global && source.base->name.starts_with("__builtins_dict__"))
            return interp.findBuiltin(source.name);
        const Value* base = resolveSource(*source.base, locals, interp);
        auto* dict = base ? base->as<DictObject>() : nullptr;
        return dict ? dict->findString(source.name) : nullptr;
    }
    case Source::Kind::ObjectDict: {  // an instance's __dict__ (a key in it reads as an Attr)
        const Value* base = resolveSource(*source.base, locals, interp);
        auto* instance = base ? base->as<InstanceObject>() : nullptr;
        return instance ? &instance->dictValue() : nullptr;
    }
    case Source::Kind::Type: {
        const Value* base = resolveSource(*source.base, locals, interp);
        auto* instance = base ? base->as<InstanceObject>() : nullptr;
        return instance ? &instance->classValue() : nullptr;
    }
    case Source::Kind::TypeDict: {
        const Value* base = resolveSource(*source.base, locals, interp);
        auto* cls = base ? base->as<ClassObject>() : nullptr;
        return cls ? &cls->dictValue() : nullptr;
    }
    }
    return nullptr;
}

// The call's arguments bound to the function's parameters, as a tuple in parameter order.
Value boundArguments(const Interpreter& interp, const FunctionObject& fn, const CallArgs& args) {
    ValueList values;
    for (auto& [name, value] : interp.bindArguments(fn, args)) values.push_back(value.unsourced());
    return makeTuple(std::move(values));
}

// The frame's locals as a call begins: its arguments bound to its parameters, and its free
// variables (the guards' L['name']).
std::map<std::string, Value> frameLocals(const Interpreter& interp, const FunctionObject& fn, const CallArgs& args) {
    std::map<std::string, Value> locals;
    for (auto& [name, value] : interp.bindArguments(fn, args)) locals[name] = std::move(value);
    for (auto& [name, value] : interp.freeVariables(fn)) locals.try_emplace(name, std::move(value));
    return locals;
}

// Where a compiled frame's function starts, as PyTorch names it: the library's wrapper frame
// around a torch.nn module at PyTorch's external_utils.py line.
SourceLocation frameLocation(const Interpreter& interp, const FunctionObject& fn) {
    SourceLocation where = fn.definedAt();
    if (!interp.isScriptFile(where.file))
        if (std::optional<TorchPlace> place = torchPlaceOf(fn.qualname, "")) {
            where.file = std::string(place->file);
            where.line = place->line;
        }
    return where;
}

std::string functionLocation(const Interpreter& interp, const FunctionObject& fn) {
    const SourceLocation where = frameLocation(interp, fn);
    return fmt::format("{}:{}", where.file, where.line);
}

// A reason as an item of "triggered by the following guard failure(s):": each of its lines
// after "    - " (PyTorch indents the reasons with "- ", then the list with four spaces).
std::string listItem(const std::string& reason) {
    std::string out;
    for (std::size_t start = 0; start <= reason.size();) {
        std::size_t end = std::min(reason.find('\n', start), reason.size());
        out += "\n    - " + reason.substr(start, end - start);
        start = end + 1;
    }
    return out;
}

int64_t configInt(Interpreter& interp, const char* name, int64_t fallback) {
    auto it = interp.dynamoConfig().attrs.find(name);
    if (it == interp.dynamoConfig().attrs.end()) return fallback;
    if (it->second.isInt()) return it->second.asInt();
    if (it->second.isBool()) return it->second.asBool() ? 1 : 0;
    throw ScriptError("TypeError", std::string("torch._dynamo.config.") + name + " must be an int");
}

// torch._inductor.config as the script has set it.
InductorConfig inductorConfig(Interpreter& interp) {
    InductorConfig config;
    const auto& attrs = interp.inductorConfig().attrs;
    for (const InductorSetting& setting : inductorSettings()) {
        auto it = attrs.find(std::string(setting.name));
        if (it == attrs.end()) continue;
        if (!it->second.isInt() || it->second.asInt() < 1)
            throw ScriptError("TypeError", fmt::format("torch._inductor.config.{} must be a positive int", setting.name));
        config.*setting.field = static_cast<int>(std::min<int64_t>(it->second.asInt(), std::numeric_limits<int>::max()));
    }
    return config;
}

// Input sizes of this compile merged with earlier ones: a dim that differs becomes -1, and
// every dim of an input whose rank changed (as PyTorch's automatic dynamic marks them).
void mergeSeenSizes(std::map<std::string, Shape>& seen, const std::map<std::string, Shape>& lifted) {
    for (const auto& [source, sizes] : lifted) {
        auto it = seen.find(source);
        if (it == seen.end()) {
            seen[source] = sizes;
            continue;
        }
        if (it->second.size() != sizes.size()) {
            it->second.assign(sizes.size(), -1);
            continue;
        }
        for (size_t d = 0; d < sizes.size(); ++d)
            if (it->second[d] != sizes[d]) it->second[d] = -1;
    }
}

// How PyTorch prints the callable torch.compile made for a backend.
std::string backendWrapperName(const std::string& backend) {
    if (backend == "inductor") return "_TorchCompileInductorWrapper";
    return fmt::format("_TorchCompileWrapper(compiler='{}', dynamic=None)", backend);
}

}  // namespace

const GraphCompiler& CompileManager::backendFor(const CompileOptions& options) const {
    const GraphCompiler* backend = compilers_(options.backend);
    if (!backend)
        throw ScriptError("InvalidBackend", fmt::format("backend '{}' is not available; available backends: {}",
                                                        options.backend, availableBackends_));
    return *backend;
}

std::vector<std::string> CompileManager::failures(const Interpreter& interp, const std::map<std::string, Value>& locals,
                                                  const std::string& backend, CacheEntry& entry) const {
    std::vector<std::string> reasons;
    if (entry.backend != backend)  // PyTorch's words (without the callables' ids)
        reasons.push_back(fmt::format("BACKEND_MATCH failure: torch.compile detected different backend callables. Cached backend: {}. "
                                      "New backend: {}. If this is unexpected, wrap your backend in functools.partial (or reuse the "
                                      "same cached backend) to avoid creating a new backend function each time. More details: "
                                      "https://github.com/pytorch/pytorch/issues/168373",
                                      backendWrapperName(entry.backend), backendWrapperName(backend)));
    // PyTorch's words: each changed part of the state named, a space after each.
    std::string globalState;
    if (entry.gradMode != gradEnabled()) globalState += "grad_mode ";
    for (const auto& [name, kind, saved] : {std::tuple{"cpu", Device::Kind::Cpu, entry.autocastCpu},
                                            std::tuple{"cuda", Device::Kind::Cuda, entry.autocastCuda}}) {
        if (saved.enabled != autocastSetting(kind).enabled) globalState += fmt::format("autocast({})_enabled ", name);
        if (saved.dtype != autocastSetting(kind).dtype) globalState += fmt::format("autocast({})_dtype ", name);
    }
    if (!globalState.empty()) reasons.push_back("GLOBAL_STATE changed: " + globalState);
    entry.guardFailures.resize(entry.guards.size());
    std::optional<std::size_t> firstFailed;
    for (std::size_t i : entry.checkOrder) {
        const Guard& guard = entry.guards[i];
        const Value* value = resolveSource(*guard.source, locals, interp);
        const Value* other = guard.otherSource ? resolveSource(*guard.otherSource, locals, interp) : nullptr;
        if (auto reason = guard.check(value, other)) {
            reasons.push_back(*reason);
            if (!firstFailed) firstFailed = i;
        }
    }
    if (firstFailed) {
        ++entry.guardFailures[*firstFailed];
        std::stable_sort(entry.checkOrder.begin(), entry.checkOrder.end(),
                         [&](std::size_t a, std::size_t b) { return entry.guardFailures[a] > entry.guardFailures[b]; });
    }
    return reasons;
}

std::string CompileManager::setStance(const std::string& stance) {
    if (stance == "eager_then_compile" || stance == "aot_eager_then_compile")
        throw ScriptError("NotImplementedError", fmt::format("torch.compiler.set_stance('{}') is not supported by Fusescope yet", stance));
    if (stance != "default" && stance != "force_eager" && stance != "eager_on_recompile" && stance != "fail_on_recompile")
        throw ScriptError("ValueError", fmt::format("unknown torch.compile stance '{}'", stance));
    return std::exchange(stance_, stance);
}

Value CompileManager::call(Interpreter& interp, CompiledFunctionObject& compiled, CallArgs& args) {
    const auto* fn = compiled.function.as<FunctionObject>();
    if (!fn) throw ScriptError("TypeError", "torch.compile needs a function defined in Python (a def or a lambda)");
    std::shared_ptr<FrameState>& slot = frames_[fn->code()];
    if (!slot) slot = std::make_shared<FrameState>();
    const std::shared_ptr<FrameState> held = slot;  // a torch._dynamo.reset() the call makes empties frames_
    FrameState& frame = *held;
    if (!frame.firstCall) frame.firstCall = firstCallOf(interp, *fn, !compiled.boundSelf.isNone());
    // The whole call, guards included, is one span named after the entry that ran it.
    RecordScope region(TraceCategory::UserAnnotation, "Torch-Compiled Region");
    auto nameRegion = [&](const std::string& compileId) {
        if (TraceRecord* r = region.record()) {
            r->name = "Torch-Compiled Region: " + compileId;
            r->compileId = compileId;
        }
    };

    if (stance_ == "force_eager") return interp.callFunction(*fn, args);
    std::vector<std::pair<std::string, std::vector<std::string>>> failed;  // most recently used entry first
    const std::map<std::string, Value> locals = frame.entries.empty() ? std::map<std::string, Value>{} : frameLocals(interp, *fn, args);
    for (auto it = frame.entries.rbegin(); it != frame.entries.rend(); ++it) {
        std::vector<std::string> reasons = failures(interp, locals, compiled.options.backend, **it);
        if (reasons.empty()) {
            // PyTorch keeps a frame's cache most recently used first (the order its recompile
            // reasons list the entries in): a hit moves its entry to the front, here the back.
            std::rotate(std::prev(it.base()), it.base(), frame.entries.end());
            CacheEntry& hit = *frame.entries.back();
            nameRegion(hit.compileId);
            return replay(interp, compiled, *fn, args, frame, hit);
        }
        failed.emplace_back((*it)->compileId, std::move(reasons));
    }
    if (stance_ == "eager_on_recompile") return interp.callFunction(*fn, args);  // cached code only
    if (stance_ == "fail_on_recompile") {  // PyTorch's words; a first compile fails too, as there
        const SourceLocation where = frameLocation(interp, *fn);
        std::string message = fmt::format("Detected recompile when torch.compile stance is 'fail_on_recompile'. filename: '{}', "
                                          "function name: '{}', line number: {}",
                                          where.file, fn->name, where.line);
        if (!failed.empty()) message += "\n    triggered by the following guard failure(s):";
        for (const auto& [id, reasons] : failed) message += listItem(recompileReason(id, reasons.front()));
        throw ScriptError("RuntimeError", message);
    }
    if (!failed.empty() && frame.limitWarned) {  // past the recompile limit: eager, silently (PyTorch skips the frame)
        nameRegion(fn->name + " (over the recompile limit: eager)");
        return interp.callFunction(*fn, args);
    }
    if (!failed.empty()) {
        // PyTorch 2.15's words: each entry's reason is its first failing guard (its guard
        // manager stops there, recompiles_verbose too), which guard_fail_fn receives too.
        std::string header = fmt::format("Recompiling function {} in {}\n    triggered by the following guard failure(s):",
                                         fn->name, functionLocation(interp, *fn));
        // The log's (brief or PyTorch's verbose form), and the event's: every failing guard.
        std::string brief = header, verbose = header, everyGuard = header;
        for (std::size_t i = 0; i < failed.size(); ++i) {
            const auto& [id, reasons] = failed[i];
            std::string reason = recompileReason(id, reasons.front());
            brief += listItem(reason);
            verbose += fmt::format("{}\n    guard {} failures:", i ? "\n" : "", i) + listItem(reason);
            for (const std::string& r : reasons) everyGuard += listItem(recompileReason(id, r));
            bus_.emit(GuardFailureEvent{id, fn->qualname, reasons});
            if (!compiled.options.guardFailFn.isNone()) {
                CallArgs failArgs;
                failArgs.args.push_back(makeTuple({Value(reason), Value(fn->name)}));
                interp.call(compiled.options.guardFailFn, failArgs);
            }
        }
        std::string nextId = fmt::format("{}/{}", frame.frameId, frame.entries.size());
        if (logger_.enabled("recompiles_verbose")) logger_.artifact("recompiles_verbose", nextId, verbose);
        else logger_.artifact("recompiles", nextId, brief);
        int64_t limit = configInt(interp, "recompile_limit", 8);  // also set as cache_size_limit
        if (static_cast<int64_t>(frame.entries.size()) >= limit) {
            frame.limitWarned = true;
            std::string lastReason = recompileReason(failed.front().first, failed.front().second.front());
            logger_.warning("dynamo", nextId,
                            fmt::format("torch._dynamo hit config.recompile_limit ({})\n"
                                        "   function: '{}' ({})\n"
                                        "   last reason: {}\n"
                                        "To log all recompilation reasons, use TORCH_LOGS=\"recompiles\".\n"
                                        "To diagnose recompilation issues, see "
                                        "https://docs.pytorch.org/docs/main/user_guide/torch_compiler/compile/"
                                        "programming_model.recompilation.html",
                                        limit, fn->name, functionLocation(interp, *fn), lastReason));
            bus_.emit(CacheLimitEvent{fn->qualname, frameLocation(interp, *fn), static_cast<int>(limit), lastReason});
            nameRegion(fn->name + " (over the recompile limit: eager)");
            return interp.callFunction(*fn, args);  // over the limit: run eagerly
        }
        SourceInsert fix;
        for (const auto& [id, reasons] : failed)
            if (fix.text.empty()) fix = markDynamicEdit(*frame.firstCall, recompileReason(id, reasons.front()));
        bus_.emit(RecompileEvent{nextId, fn->qualname, frameLocation(interp, *fn), everyGuard, fix});
    }
    Value result = compileAndRun(interp, *fn, args, frame, compiled.options, nullptr, &compiled);
    if (!frame.entries.empty()) nameRegion(frame.entries.back()->compileId);
    return result;
}

std::vector<SplitGraphs> CompileManager::splitGraphs() const {
    std::vector<const FrameState*> frames;
    for (const auto& [code, frame] : frames_) frames.push_back(frame.get());
    std::sort(frames.begin(), frames.end(), [](const FrameState* a, const FrameState* b) { return a->frameId < b->frameId; });
    std::vector<SplitGraphs> pairs;
    for (const FrameState* frame : frames)
        for (const auto& entry : frame->entries)  // most recently used last: their ids in no order
            for (const auto& [between, timing] : entry->breakTimings) {
                const Segment& after = entry->segments.at(between.second);
                std::vector<int> reads;
                for (const InputLink& link : after.inputsFrom) reads.push_back(link.segment == between.first ? link.output : -1);
                pairs.push_back(SplitGraphs{entry->compileId, entry->function, &entry->segments.at(between.first), &after,
                                            std::move(reads), timing});
            }
    return pairs;
}

TraceContext CompileManager::traceContext(Interpreter& interp, const FunctionObject& fn, CacheEntry& entry,
                                          FrameState& frame, const CompileOptions& options, bool recording) {
    TraceContext context;
    context.compileId = entry.compileId;
    context.builtinsDict = entry.builtinsDict;
    context.function = fn.qualname;
    context.functionWhere = frameLocation(interp, fn);
    context.backend = &backendFor(options);
    context.suppressErrors = configInt(interp, "suppress_errors", 1) != 0;
    context.settings = settings_;
    context.settings.inductor = inductorConfig(interp);
    context.logger = &logger_;
    context.bus = &bus_;
    context.recording = recording;
    context.fullgraph = options.fullgraph;
    context.segments = &entry.segments;
    context.allDynamic = options.dynamic == "true";
    context.automaticDynamic = options.dynamic != "false" && configInt(interp, "automatic_dynamic_shapes", 1) != 0;
    context.seenSizes = &frame.seenSizes;
    context.graphCounter = &graphCounter_;
    context.breakTimings = &entry.breakTimings;
    return context;
}

namespace {

// The compiled frame's guards as PyTorch's tree holds them, resolved in the call that compiled.
GuardTreeScope treeScope(const Interpreter& interp, const FunctionObject& fn, const std::map<std::string, Value>& locals,
                         const CacheEntry& entry) {
    GuardTreeScope scope;
    std::vector<std::string> freeNames;
    for (const auto& [name, value] : interp.freeVariables(fn)) freeNames.push_back(name);
    scope.frameLocals = frameLocalNames(fn.def ? fn.def->params : fn.lambda->params, interp.localNamesOf(fn).size(), freeNames);
    scope.resolve = [&interp, &locals](const Source& source) { return resolveSource(source, locals, interp); };
    scope.state = {entry.gradMode, entry.autocastCpu, entry.autocastCuda};
    return scope;
}

}  // namespace

// The guards log as PyTorch 2.15 prints it: the shape guards as a Python function (where there
// are any), "GUARDS:" with the guard tree, then how long checking the guards on the call's own
// arguments took.
void CompileManager::logGuardTree(const Interpreter& interp, const FunctionObject& fn, const std::map<std::string, Value>& locals,
                                  const CacheEntry& entry) {
    const GuardTreeScope scope = treeScope(interp, fn, locals, entry);
    if (std::string function = shapeGuardFunction(shapeGuardCodes(entry.guards)); !function.empty())
        logger_.artifact("guards", entry.compileId, function);
    logger_.artifact("guards", entry.compileId, "GUARDS:\n" + guardTreeText(entry.guards, scope));
    auto start = Clock::now();
    for (const Guard& g : entry.guards)
        (void)g.check(scope.resolve(*g.source), g.otherSource ? scope.resolve(*g.otherSource) : nullptr);
    double micros = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    logger_.artifact("guards", entry.compileId, fmt::format("Guard eval latency = {:.2f} us", micros));
}

Value CompileManager::compileAndRun(Interpreter& interp, const FunctionObject& fn, CallArgs& args, FrameState& frame,
                                    const CompileOptions& options, ExplainReport* report,
                                    const CompiledFunctionObject* compiled) {
    if (frame.frameId < 0) frame.frameId = nextFrameId_++;
    auto entry = std::make_unique<CacheEntry>();
    entry->compileId = fmt::format("{}/{}", frame.frameId, frame.entries.size());
    entry->gradMode = gradEnabled();
    entry->autocastCpu = autocastSetting(Device::Kind::Cpu);
    entry->autocastCuda = autocastSetting(Device::Kind::Cuda);
    entry->backend = options.backend;
    entry->function = fn.qualname;
    // Dynamo names the builtins dict of each trace from one counter it also draws from for
    // each compiled graph and each graph break's restart and resume function.
    entry->builtinsDict = fmt::format("__builtins_dict___{}", uniqueIds_++);
    logger_.log("dynamo", LogLevel::Info, entry->compileId,
                fmt::format("Step 1: torchdynamo start tracing {} {}", fn.name, functionLocation(interp, fn)));
    bus_.emit(CompileStartedEvent{entry->compileId, fn.qualname, frameLocation(interp, fn), interp.userStack()});

    std::map<std::string, Value> locals = frameLocals(interp, fn, args);  // as the call began (guards are built on them)
    TraceContext context = traceContext(interp, fn, *entry, frame, options, true);
    context.resolve = [&](const Source& source) { return resolveSource(source, locals, interp); };
    std::optional<DirectCallRecorder> recorder = directRecorder(interp, compiled, fn, args, *entry);
    context.direct = recorder ? &*recorder : nullptr;

    auto start = Clock::now();
    Value result;
    std::vector<BreakRecord> breaks;
    {
        Tracer tracer(interp, context);
        try {
            result = interp.callFunction(fn, args, true, 0);
        } catch (const ScriptError& e) {
            tracer.exceptionEscaped(e, fn);
            throw;
        }
        tracer.finish();
        if (recorder) learnDirectCall(*entry, *recorder, result, fn);
        entry->guards = tracer.guards();
        entry->checkOrder = guardCheckOrder(entry->guards, treeScope(interp, fn, locals, *entry));
        breaks = tracer.breaks();
        uniqueIds_ += 2 * static_cast<int>(breaks.size());
        for (const auto& segment : entry->segments) uniqueIds_ += segment.graph && segment.graph->opCount() > 0 ? 1 : 0;
        mergeSeenSizes(frame.seenSizes, tracer.liftedSizes());
    }
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();

    std::vector<std::string> guardLines;
    std::vector<int> guardSourceLines;
    for (const Guard& g : entry->guards) {
        guardLines.push_back(g.str());
        guardSourceLines.push_back(g.createdAtLine);
    }
    if (logger_.enabled("guards")) logGuardTree(interp, fn, locals, *entry);
    if (logger_.enabled("verbose_guards")) {
        std::string text = "GUARDS:";
        for (const Guard& g : entry->guards) text += fmt::format("\n{:<16}{}", g.typeLabel(), g.str());
        logger_.artifact("verbose_guards", entry->compileId, text);
    }
    bus_.emit(GuardsEvent{entry->compileId, guardLines, guardSourceLines});
    logger_.log("dynamo", LogLevel::Info, entry->compileId,
                fmt::format("Step 1: torchdynamo done tracing {} ({} graph(s), {} graph break(s))", fn.name,
                            entry->segments.size(), breaks.size()));
    ++compileCount_;
    if (report) {
        for (const auto& s : entry->segments) report->graphs.push_back(s.graph);
        report->breaks.insert(report->breaks.end(), breaks.begin(), breaks.end());
        report->guards.insert(report->guards.end(), entry->guards.begin(), entry->guards.end());
        report->compileSeconds += seconds;
    }
    frame.entries.push_back(std::move(entry));
    return result;
}

Value CompileManager::replay(Interpreter& interp, const CompiledFunctionObject& compiled, const FunctionObject& fn,
                             CallArgs& args, FrameState& frame, CacheEntry& entry) {
    // A direct call leaves no op spans: a profiled run replays, as its trace should show the ops.
    if (!Profiler::active() && !entry.directPlans.empty()) {
        Value bound = boundArguments(interp, fn, args);
        for (const DirectCallPlan& plan : entry.directPlans) {
            if (!plan.matches(compiled.function, bound)) continue;
            ++directCallCount_;
            return plan.run(bound, plan.segment() >= 0 ? &entry.segments[static_cast<size_t>(plan.segment())].run : nullptr);
        }
    }
    TraceContext context = traceContext(interp, fn, entry, frame, compiled.options, false);
    std::optional<DirectCallRecorder> recorder = directRecorder(interp, &compiled, fn, args, entry);
    context.direct = recorder ? &*recorder : nullptr;
    Tracer tracer(interp, context);
    Value result = interp.callFunction(fn, args, true, 0);
    tracer.finish();
    if (recorder) learnDirectCall(entry, *recorder, result, fn);
    return result;
}

std::optional<DirectCallRecorder> CompileManager::directRecorder(Interpreter& interp, const CompiledFunctionObject* compiled,
                                                                 const FunctionObject& fn, const CallArgs& args,
                                                                 const CacheEntry& entry) const {
    constexpr size_t kMaxPlans = 4;  // a call whose state changes every time would only fill the list
    if (!compiled || entry.directPlans.size() >= kMaxPlans) return std::nullopt;
    return DirectCallRecorder(compiled->function, boundArguments(interp, fn, args));
}

void CompileManager::learnDirectCall(CacheEntry& entry, DirectCallRecorder& recorder, const Value& result,
                                     const FunctionObject& fn) const {
    auto outcome = recorder.finish(result);
    if (auto* plan = std::get_if<DirectCallPlan>(&outcome)) {
        std::string graph = plan->segment() >= 0 ? entry.segments[static_cast<size_t>(plan->segment())].name : "no graph";
        logger_.log("dynamo", LogLevel::Debug, entry.compileId,
                    fmt::format("calls of {} that find the state this call found run {} directly, without its Python",
                                fn.name, graph));
        entry.directPlans.push_back(std::move(*plan));
        return;
    }
    const std::string& why = std::get<std::string>(outcome);
    if (why == entry.noDirectCall) return;
    entry.noDirectCall = why;
    logger_.log("dynamo", LogLevel::Debug, entry.compileId,
                fmt::format("cache hits of {} replay its Python under the tracer: {}", fn.name, why));
}

ExplainReport CompileManager::explain(Interpreter& interp, const FunctionObject& fn, CallArgs& args, Value& result) {
    ExplainReport report;
    FrameState scratch;  // explain() compiles afresh and leaves the session's caches alone
    scratch.frameId = nextFrameId_++;
    CompileOptions options;
    options.backend = "eager";
    result = compileAndRun(interp, fn, args, scratch, options, &report, nullptr);
    return report;
}

void CompileManager::reset() {
    frames_.clear();
    nextFrameId_ = 0;
}

std::vector<const BreakRecord*> ExplainReport::countedBreaks() const {
    std::vector<const BreakRecord*> counted;
    for (const BreakRecord& b : breaks)
        if (b.endedGraph) counted.push_back(&b);
    return counted;
}

std::vector<const Node*> ExplainReport::ops(const Graph& graph) {
    std::vector<const Node*> calls;
    for (const auto& n : graph.nodes())  // a size read is an input of PyTorch's graph (s77: "Sym(s77)"), not an op
        if (n->op == NodeOp::CallFunction && n->target != "sym_size") calls.push_back(n.get());
    return calls;
}

int ExplainReport::opCount() const {
    size_t count = 0;
    for (const auto& g : graphs) count += ops(*g).size();
    return static_cast<int>(count);
}

std::string ExplainReport::text() const {
    const std::vector<const BreakRecord*> counted = countedBreaks();
    std::string out = fmt::format("Graph Count: {}\nGraph Break Count: {}\nOp Count: {}\n", graphs.size(),
                                  counted.size(), opCount());
    out += "Break Reasons:\n";
    for (size_t i = 0; i < counted.size(); ++i) {
        out += fmt::format("  Break Reason {}:\n    Reason: {}\n    User Stack:\n", i + 1, counted[i]->why.explainText());
        for (const auto& f : counted[i]->explainStack)
            out += fmt::format("      <FrameSummary file {}, line {} in {}>\n", f.file, f.line, f.function);
    }
    out += "Ops per Graph:\n";
    for (size_t i = 0; i < graphs.size(); ++i) {
        out += fmt::format("  Ops {}:\n", i + 1);
        for (const Node* n : ops(*graphs[i])) out += "    " + opDisplayName(*n) + "\n";
    }
    out += "Out Guards:\n";
    for (size_t i = 0; i < guards.size(); ++i) {
        const Guard& g = guards[i];
        const Source* root = g.source.get();
        while (root->base) root = root->base.get();
        const char* scope = root->kind == Source::Kind::Global ? "global" : "local";
        out += fmt::format("  Guard {}:\n    Name: \"{}\"\n    Source: {}\n    Create Function: {}\n    Code: {}\n"
                           "    Created By: {}\n",
                           i + 1, g.guardedName(), scope, g.typeLabel(), g.code(), g.createdBy);
    }
    out += fmt::format("Compile Times: TorchDynamo compilation metrics:\n"
                       "Function, Runtimes (s)\n"
                       "_compile.compile_inner, {:.4f}\n",
                       compileSeconds);
    return out;
}

}  // namespace fusescope
