#include "capture/compile_manager.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "capture/guard_tree.h"
#include "capture/resume_point.h"
#include "capture/shape_guard_function.h"
#include "core/grad_mode.h"
#include "graph/graph_printer.h"
#include "profile/profiler.h"
#include "script/ast.h"
#include "script/torch_lines.h"

namespace fusescope {

namespace {

using Clock = std::chrono::steady_clock;

// `globals`: the compiled function's module's (null: the script's), which G['x'] names.
const Value* resolveSource(const Source& source, const std::map<std::string, Value>& locals,
                           const Interpreter& interp, const Scope* globals) {
    switch (source.kind) {
    case Source::Kind::Local: {
        auto it = locals.find(source.name);
        return it == locals.end() ? nullptr : &it->second;
    }
    case Source::Kind::Global: {
        if (const Value* installed = interp.dynamoGlobal(source.name)) return installed;
        if (!globals || source.name.starts_with("__import_")) return interp.global(source.name);
        auto it = globals->vars.find(source.name);
        return it == globals->vars.end() ? nullptr : &it->second;
    }
    case Source::Kind::Item: {
        const Value* base = resolveSource(*source.base, locals, interp, globals);
        const ValueList* items = base ? sequenceItems(*base) : nullptr;
        if (!items || source.index < 0 || source.index >= static_cast<int64_t>(items->size())) return nullptr;
        return &(*items)[static_cast<size_t>(source.index)];
    }
    case Source::Kind::Attr: {  // an instance attribute, read from its __dict__ (no script code runs), a module's or a class's
        const Value* base = resolveSource(*source.base, locals, interp, globals);
        if (base && base->isTensor() && source.name == "grad") {  // read into a holder: a guard reads it at once
            static thread_local Value grad;
            grad = tensorGrad(base->asTensor());
            return &grad;
        }
        if (auto* module = base ? base->as<ModuleObject>() : nullptr) return module->find(source.name);
        if (auto* fn = base ? base->as<FunctionObject>() : nullptr) {
            if (source.name == "__closure__") return &interp.closureOf(*fn);
            return source.name == "__defaults__" ? &fn->defaultsTuple() : nullptr;
        }
        if (auto* cell = base ? base->as<CellObject>() : nullptr) return source.name == "cell_contents" ? cell->contents() : nullptr;
        if (auto* cls = base ? base->as<ClassObject>() : nullptr) {
            if (source.name == "__mro__") return &cls->mroValue();
            return source.name == "__name__" ? &cls->nameValue() : cls->lookup(source.name);
        }
        if (auto* defaulting = base ? base->as<DefaultDictObject>() : nullptr; defaulting && source.name == "default_factory")
            return &defaulting->defaultFactory;
        auto* instance = base ? base->as<InstanceObject>() : nullptr;
        if (instance && source.name == "__class__") return &instance->classValue();
        return instance ? instance->dict->findString(source.name) : nullptr;
    }
    case Source::Kind::Key: {
        if (source.base->kind == Source::Kind::Global && source.base->name.starts_with("__builtins_dict__"))
            return interp.findBuiltin(source.name);
        const Value* base = resolveSource(*source.base, locals, interp, globals);
        auto* dict = base ? base->as<DictObject>() : nullptr;
        return dict ? dict->findString(source.name) : nullptr;
    }
    case Source::Kind::ObjectDict: {  // an instance's __dict__ (a key in it reads as an Attr)
        const Value* base = resolveSource(*source.base, locals, interp, globals);
        auto* instance = base ? base->as<InstanceObject>() : nullptr;
        return instance ? &instance->dictValue() : nullptr;
    }
    case Source::Kind::Type: {
        const Value* base = resolveSource(*source.base, locals, interp, globals);
        auto* instance = base ? base->as<InstanceObject>() : nullptr;
        return instance ? &instance->classValue() : nullptr;
    }
    case Source::Kind::TypeDict: {
        const Value* base = resolveSource(*source.base, locals, interp, globals);
        auto* cls = base ? base->as<ClassObject>() : nullptr;
        return cls ? &cls->dictValue() : nullptr;
    }
    case Source::Kind::IntKey: {
        const Value* base = resolveSource(*source.base, locals, interp, globals);
        auto* dict = base ? base->as<DictObject>() : nullptr;
        return dict ? dict->find(Value(source.index)) : nullptr;
    }
    case Source::Kind::GlobalWeakRef: return resolveSource(*source.base, locals, interp, globals);  // alive while the frame holds it
    case Source::Kind::KeyAt: {
        const Value* base = resolveSource(*source.base, locals, interp, globals);
        auto* dict = base ? base->as<DictObject>() : nullptr;
        if (!dict || source.index < 0 || source.index >= static_cast<int64_t>(dict->items.size())) return nullptr;
        return &dict->items[static_cast<size_t>(source.index)].second;
    }
    }
    return nullptr;
}

// The call's arguments bound to the function's parameters, as a tuple in parameter order.
// `names`, when given, gets the parameters' names in the same order.
Value boundArguments(const Interpreter& interp, const FunctionObject& fn, const CallArgs& args,
                     std::vector<std::string>* names = nullptr) {
    ValueList values;
    for (auto& [name, value] : interp.bindArguments(fn, args)) {
        values.push_back(value.unsourced());
        if (names) names->push_back(name);
    }
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
        if (std::optional<TorchPlace> place = torchPlaceOf(fn.codeQualname, "")) {
            where.file = std::string(place->file);
            where.line = place->line;
        }
    return where;
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

// How PyTorch prints the callable torch.compile made for these options.
std::string backendWrapperName(const std::string& backend, const std::string& dynamicOption) {
    if (backend == "inductor") return "_TorchCompileInductorWrapper";
    const char* dynamic = dynamicOption == "true" ? "True" : dynamicOption == "false" ? "False" : "None";
    return fmt::format("_TorchCompileWrapper(compiler='{}', dynamic={})", backend, dynamic);
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
                                                  const CompileOptions& options, CacheEntry& entry) const {
    std::vector<std::string> reasons;
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
        const Value* value = resolveSource(*guard.source, locals, interp, entry.globals.get());
        const Value* other = guard.otherSource ? resolveSource(*guard.otherSource, locals, interp, entry.globals.get()) : nullptr;
        if (auto reason = guard.check(value, other)) {
            reasons.push_back(*reason);
            if (!firstFailed) firstFailed = i;
        }
    }
    // Two callables differ as PyTorch's wrappers compare: by backend and `dynamic` (checked after
    // the guard tree: a tensor's mismatch is what PyTorch names first).
    if (entry.backend != options.cacheBackend() || entry.dynamic != options.dynamic)  // PyTorch's words (without the callables' ids)
        reasons.push_back(fmt::format("BACKEND_MATCH failure: torch.compile detected different backend callables. Cached backend: {}. "
                                      "New backend: {}. If this is unexpected, wrap your backend in functools.partial (or reuse the "
                                      "same cached backend) to avoid creating a new backend function each time. More details: "
                                      "https://github.com/pytorch/pytorch/issues/168373",
                                      backendWrapperName(entry.backend, entry.dynamic),
                                      backendWrapperName(options.cacheBackend(), options.dynamic)));
    if (firstFailed) {
        ++entry.guardFailures[*firstFailed];
        // As Dynamo's guard manager moves a failing guard to the front; ShapeEnv's guards stay
        // its epilogue, checked after the tree.
        std::stable_sort(entry.checkOrder.begin(), entry.checkOrder.end(), [&](std::size_t a, std::size_t b) {
            const bool shapeA = isShapeGuard(entry.guards[a]), shapeB = isShapeGuard(entry.guards[b]);
            if (shapeA != shapeB) return shapeB;
            return !shapeA && entry.guardFailures[a] > entry.guardFailures[b];
        });
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

// One frame of a call in flight: the compiled frame's, or a resume function's after a break.
struct CompileManager::Section {
    std::shared_ptr<FrameState> frame;
    CacheEntry* entry = nullptr;
    std::unique_ptr<CacheEntry> made;     // a compile's entry, until its trace ends
    std::map<std::string, Value> locals;  // the frame's locals as it began (a compile's guards resolve in them)
    std::vector<std::string> localNames;  // in its frame's order (framelocals_idx)
    std::optional<DirectCallRecorder> recorder;
    std::unique_ptr<Tracer> tracer;
    Clock::time_point start = Clock::now();
    bool restarted = false;  // the frame's trace again after a restart (which Dynamo's counters counted)
    bool closed = false;     // its entry made (closeRunning)
    bool graphless = false;  // ... and none of its graphs had an op
};

struct CompileManager::CallState {
    Interpreter& interp;
    const FunctionObject& fn;
    const CompiledFunctionObject* compiled;  // null for explain()
    const CompileOptions& options;
    ExplainReport* report;
    std::vector<std::unique_ptr<Section>> sections;  // every frame it ran in, in order
    Section* running = nullptr;                      // the one tracing now; null once the rest runs eagerly
    // The running frame's locals in the order it bound them; empty until a resume (then the
    // function's own order, found once per function).
    std::vector<std::string> localOrder;
    BreakTimeline timeline;
    std::vector<std::shared_ptr<FrameState>> frames;  // every frame it ran in
    Interpreter::FrameInterceptor eagerFrames;  // the rest of a call a break ended the graph at (TraceContext::endAtCall)
    // Its cache hits may run directly: a compiled function's, or a frame compiled from eager code
    // (an optimizer's step frame), but not explain()'s.
    bool learnsDirectCalls() const { return compiled || !report; }
};

CacheEntry* CompileManager::lookup(const Interpreter& interp, FrameState& frame, const std::map<std::string, Value>& locals,
                                   const CompileOptions& options, Failures& failed) {
    for (auto it = frame.entries.rbegin(); it != frame.entries.rend(); ++it) {
        std::vector<std::string> reasons = failures(interp, locals, options, **it);
        if (reasons.empty()) {
            // PyTorch keeps a frame's cache most recently used first (the order its recompile
            // reasons list the entries in): a hit moves its entry to the front, here the back.
            std::rotate(std::prev(it.base()), it.base(), frame.entries.end());
            return frame.entries.back().get();
        }
        failed.emplace_back((*it)->compileId, std::move(reasons));
    }
    return nullptr;
}

bool CompileManager::mayCompile(Interpreter& interp, FrameState& frame, const Failures& failed, const CompileOptions& options) {
    if (stance_ == "eager_on_recompile") return false;  // cached code only
    const std::string location = fmt::format("{}:{}", frame.where.file, frame.where.line);
    if (stance_ == "fail_on_recompile") {  // PyTorch's words; a first compile fails too, as there
        std::string message = fmt::format("Detected recompile when torch.compile stance is 'fail_on_recompile'. filename: '{}', "
                                          "function name: '{}', line number: {}",
                                          frame.where.file, frame.name, frame.where.line);
        if (!failed.empty()) message += "\n    triggered by the following guard failure(s):";
        for (const auto& [id, reasons] : failed) message += listItem(recompileReason(id, reasons.front()));
        throw ScriptError("RuntimeError", message);
    }
    if (failed.empty()) return true;
    if (frame.limitWarned) return false;  // past the recompile limit: eager, silently (PyTorch skips the frame)
    // PyTorch 2.15's words: each entry's reason is its first failing guard (its guard
    // manager stops there, recompiles_verbose too), which guard_fail_fn receives too.
    std::string header = fmt::format("Recompiling function {} in {}\n    triggered by the following guard failure(s):",
                                     frame.name, location);
    // The log's (brief or PyTorch's verbose form), and the event's: every failing guard.
    std::string brief = header, verbose = header, everyGuard = header;
    for (std::size_t i = 0; i < failed.size(); ++i) {
        const auto& [id, reasons] = failed[i];
        std::string reason = recompileReason(id, reasons.front());
        brief += listItem(reason);
        verbose += fmt::format("{}\n    guard {} failures:", i ? "\n" : "", i) + listItem(reason);
        for (const std::string& r : reasons) everyGuard += listItem(recompileReason(id, r));
        bus_.emit(GuardFailureEvent{id, frame.qualname, reasons});
        if (!options.guardFailFn.isNone()) {
            CallArgs failArgs;
            failArgs.args.push_back(makeTuple({Value(reason), Value(frame.name)}));
            interp.call(options.guardFailFn, failArgs);
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
                                    limit, frame.name, location, lastReason));
        bus_.emit(CacheLimitEvent{frame.qualname, frame.where, static_cast<int>(limit), lastReason});
        return false;  // over the limit: run eagerly
    }
    SourceInsert fix;
    if (frame.firstCall)
        for (const auto& [id, reasons] : failed)
            if (fix.text.empty()) fix = markDynamicEdit(*frame.firstCall, recompileReason(id, reasons.front()));
    bus_.emit(RecompileEvent{nextId, frame.qualname, frame.where, everyGuard, fix});
    return true;
}

namespace {

bool hasTorchInFrame(const Interpreter& interp, const FunctionObject& fn, const std::map<std::string, Value>& locals);

// The function as a script value (what a direct-call plan matches the call's function against).
Value functionValue(const FunctionObject& fn) { return Value(std::const_pointer_cast<Object>(fn.shared_from_this())); }

// A compiled module's forward runs, in PyTorch, under the OptimizedModule's call and the
// module's own (torch.nn's forward under the first alone, external_utils.py's frame between).
int moduleCallsAround(const Interpreter& interp, const CompiledFunctionObject* compiled, const FunctionObject& fn) {
    if (!compiled || !compiled->isModule) return 0;
    return interp.isScriptFile(fn.definedAt().file) ? 2 : 1;
}

}  // namespace

std::shared_ptr<FrameState> CompileManager::frameOf(Interpreter& interp, const FunctionObject& fn,
                                                    std::map<const void*, std::shared_ptr<FrameState>>& frames) {
    std::shared_ptr<FrameState>& slot = frames[fn.code()];
    if (!slot) {
        slot = std::make_shared<FrameState>();
        slot->name = fn.codeName;
        slot->qualname = fn.codeQualname;
        slot->where = frameLocation(interp, fn);
    }
    return slot;
}

Value CompileManager::runIntercepting(Interpreter& interp, const CompileOptions& options, ExplainReport* report,
                                      const std::function<Value()>& run) {
    const Interpreter::FrameInterceptor intercept = [this, &interp, &options, report](const FunctionObject& fn, CallArgs& args) {
        return compileFrame(interp, fn, args, options, report);
    };
    const HooksScope eager(interp, nullptr, &intercept);
    return run();
}

std::optional<Value> CompileManager::compileFrame(Interpreter& interp, const FunctionObject& fn, CallArgs& args,
                                                  const CompileOptions& options, ExplainReport* report) {
    if (stance_ == "force_eager") return std::nullopt;
    // The arguments are the frame's own (L['args']): where the caller's trace read them is not.
    for (Value& a : args.args) a = a.unsourced();
    for (auto& [name, a] : args.kwargs) a = a.unsourced();
    const std::shared_ptr<FrameState> held = frameOf(interp, fn, report ? report->frames : frames_);
    FrameState& frame = *held;
    if (frame.skipped) return std::nullopt;
    // Dynamo compiles a frame only where it has torch in it (convert_frame.py's has_tensor_in_frame).
    const std::map<std::string, Value> locals = frameLocals(interp, fn, args);
    if (!hasTorchInFrame(interp, fn, locals)) return std::nullopt;
    Failures failed;
    if (CacheEntry* hit = lookup(interp, frame, locals, options, failed)) {
        if (!report)
            if (std::optional<Value> result = directCall(interp, functionValue(fn), fn, args, *hit))
                return *result;
        return runTraced(interp, nullptr, fn, args, held, hit, options, report);
    }
    if (!mayCompile(interp, frame, failed, options)) return std::nullopt;
    return runTraced(interp, nullptr, fn, args, held, nullptr, options, report);
}

Value CompileManager::call(Interpreter& interp, CompiledFunctionObject& compiled, CallArgs& args) {
    const auto* fn = compiled.function.as<FunctionObject>();
    if (!fn) throw ScriptError("TypeError", "torch.compile needs a function defined in Python (a def or a lambda)");
    const std::shared_ptr<FrameState> held = frameOf(interp, *fn, frames_);  // held: a torch._dynamo.reset() the call makes empties frames_
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
    if (frame.skipped)
        return runIntercepting(interp, compiled.options, nullptr,
                               [&] { return interp.callFunction(*fn, args, false, 0, moduleCallsAround(interp, &compiled, *fn)); });
    Failures failed;
    const std::map<std::string, Value> locals = frame.entries.empty() ? std::map<std::string, Value>{} : frameLocals(interp, *fn, args);
    if (CacheEntry* hit = lookup(interp, frame, locals, compiled.options, failed)) {
        nameRegion(hit->compileId);
        if (std::optional<Value> result = directCall(interp, compiled.function, *fn, args, *hit)) return *result;
        return runTraced(interp, &compiled, *fn, args, held, hit, compiled.options, nullptr);
    }
    if (!mayCompile(interp, frame, failed, compiled.options)) {
        nameRegion(fn->name + " (over the recompile limit: eager)");
        return interp.callFunction(*fn, args);
    }
    Value result = runTraced(interp, &compiled, *fn, args, held, nullptr, compiled.options, nullptr);
    if (!frame.entries.empty()) nameRegion(frame.entries.back()->compileId);
    return result;
}

std::vector<SplitGraphs> CompileManager::splitGraphs() const {
    std::vector<SplitGraphs> pairs;
    for (const Split& split : splits_) {
        std::vector<int> reads;
        for (const InputLink& link : split.after->inputsFrom) reads.push_back(link.segment == split.before ? link.output : -1);
        pairs.push_back(SplitGraphs{split.before->compileId, split.before->function, split.before, split.after, std::move(reads),
                                    split.timing});
    }
    return pairs;
}

TraceContext CompileManager::traceContext(Interpreter& interp, CacheEntry& entry, FrameState& frame,
                                          const CompileOptions& options, bool recording) {
    TraceContext context;
    context.compileId = entry.compileId;
    context.builtinsDict = entry.builtinsDict;
    context.function = entry.function;
    context.functionWhere = frame.where;
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
    context.staticParameters = configInt(interp, "force_parameter_static_shapes", 1) != 0;
    context.seenSizes = &frame.seenSizes;
    context.graphCounter = &graphCounter_;
    context.loggedBreaks = &loggedBreaks_;
    context.warningsGiven = &warningsGiven_;
    return context;
}

namespace {

// The frame's guards as PyTorch's tree holds them, resolved in the locals its compile began with.
GuardTreeScope treeScope(const Interpreter& interp, const std::vector<std::string>& localNames,
                         const std::map<std::string, Value>& locals, const CacheEntry& entry) {
    GuardTreeScope scope;
    scope.frameLocals = localNames;
    scope.resolve = [&interp, &locals, globals = entry.globals.get()](const Source& source) {
        return resolveSource(source, locals, interp, globals);
    };
    scope.state = {entry.gradMode, entry.autocastCpu, entry.autocastCuda};
    return scope;
}

// The compiled frame's locals in its frame's order: parameters, locals, free variables.
std::vector<std::string> compiledFrameLocals(const Interpreter& interp, const FunctionObject& fn) {
    std::vector<std::string> freeNames;
    for (const auto& [name, value] : interp.freeVariables(fn)) freeNames.push_back(name);
    return frameLocalNames(fn.def ? fn.def->params : fn.lambda->params, interp.localNamesOf(fn).size(), freeNames);
}

// `source` with the global `from` read as `to` (Dynamo's builtins dict of a restarted trace).
SourcePtr renamedGlobal(const SourcePtr& source, const std::string& from, const std::string& to) {
    if (!source) return source;
    if (source->kind == Source::Kind::Global) {
        if (source->name != from) return source;
        auto renamed = std::make_shared<Source>(*source);
        renamed->name = to;
        return renamed;
    }
    SourcePtr base = renamedGlobal(source->base, from, to);
    if (base == source->base) return source;
    auto renamed = std::make_shared<Source>(*source);
    renamed->base = base;
    return renamed;
}

// A SymInt (SymFloat) of the graph before a break, wherever the resume frame reaches it (a
// local, a list or tuple of sizes): the int (float) it was on this call, an input of the resume
// frame like any.
void concretizeSymInts(Value& value, int depth = 0) {
    if (value.symbolic() || value.symbolicFloat()) {
        SourcePtr source = std::move(value.source);
        value = value.symbolic() ? Value((*value.symbolic())->hint) : Value((*value.symbolicFloat())->hint);
        value.source = std::move(source);
        return;
    }
    if (depth > 8) return;
    ValueList* items = nullptr;
    if (auto* list = value.as<ListObject>()) items = &list->items;
    else if (auto* tuple = value.as<TupleObject>()) items = &tuple->items;
    if (items)
        for (Value& item : *items) concretizeSymInts(item, depth + 1);
}

// Whether `value` is or holds (in a list or tuple) a SymInt.
bool holdsSymInt(const Value& value, int depth = 0) {
    if (value.symbolic()) return true;
    const ValueList* items = depth <= 8 ? sequenceItems(value) : nullptr;
    return items && std::any_of(items->begin(), items->end(), [&](const Value& v) { return holdsSymInt(v, depth + 1); });
}

// Whether `value` is or holds (in a list, tuple or dict) a tensor or an nn.Module.
bool holdsTensor(const Value& value, int depth = 0) {
    if (value.isTensor()) return true;
    if (depth > 32) return false;
    if (const auto* instance = value.as<InstanceObject>()) return instance->cls->isNnModule();
    if (const ValueList* items = sequenceItems(value))
        return std::any_of(items->begin(), items->end(), [&](const Value& v) { return holdsTensor(v, depth + 1); });
    if (const auto* dict = value.as<DictObject>())
        return std::any_of(dict->items.begin(), dict->items.end(), [&](const auto& kv) { return holdsTensor(kv.second, depth + 1); });
    return false;
}

// Dynamo compiles a resume function only where its frame has torch in it (convert_frame.py's
// has_tensor_in_frame): a global the code names that is torch or a torch module, or a tensor or
// module among its locals. Elsewhere the rest runs as plain Python, uncompiled.
bool hasTorchInFrame(const Interpreter& interp, const FunctionObject& fn, const std::map<std::string, Value>& locals) {
    // A global the code reads (co_names): a name the function binds itself is a local, though it
    // names torch (optimizer.py's _use_grad imports torch._dynamo: Dynamo skips its frame).
    const std::set<std::string>& own = interp.localNamesOf(fn);
    if (fn.globals && fn.def)
        for (const std::string& name : fn.def->reads) {
            auto it = own.count(name) ? fn.globals->vars.end() : fn.globals->vars.find(name);
            if (it == fn.globals->vars.end()) continue;
            if (const auto* module = it->second.as<ModuleObject>(); module && (module->name == "torch" || module->name.starts_with("torch.")))
                return true;
        }
    return std::any_of(locals.begin(), locals.end(), [](const auto& local) { return holdsTensor(local.second); });
}

}  // namespace

// The guards log as PyTorch 2.15 prints it: the shape guards as a Python function (where there
// are any), "GUARDS:" with the guard tree, then how long checking the guards on the call's own
// arguments took.
void CompileManager::logGuardTree(const Interpreter& interp, const Section& section) {
    const CacheEntry& entry = *section.entry;
    const GuardTreeScope scope = treeScope(interp, section.localNames, section.locals, entry);
    if (std::string function = shapeGuardFunction(shapeGuardCodes(entry.guards)); !function.empty())
        logger_.artifact("guards", entry.compileId, function);
    logger_.artifact("guards", entry.compileId, "GUARDS:\n" + guardTreeText(entry.guards, scope));
    auto start = Clock::now();
    for (const Guard& g : entry.guards)
        (void)g.check(scope.resolve(*g.source), g.otherSource ? scope.resolve(*g.otherSource) : nullptr);
    double micros = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    logger_.artifact("guards", entry.compileId, fmt::format("Guard eval latency = {:.2f} us", micros));
}

Value CompileManager::runTraced(Interpreter& interp, const CompiledFunctionObject* compiled, const FunctionObject& fn,
                                CallArgs& args, const std::shared_ptr<FrameState>& frame, CacheEntry* hit,
                                const CompileOptions& options, ExplainReport* report) {
    CallState state{interp, fn, compiled, options, report, {}, {}, {}, {}, {}};
    state.eagerFrames = [this, &interp, &options, report](const FunctionObject& called, CallArgs& calledArgs) {
        return compileFrame(interp, called, calledArgs, options, report);
    };
    // Where the rest of the frame runs eagerly (its resume function not compiled), each function it
    // calls is compiled in a frame of its own, as Dynamo's callback sees every frame.
    struct RestoreInterceptor {
        Interpreter& in;
        const Interpreter::FrameInterceptor* previous;
        ~RestoreInterceptor() { in.setFrameInterceptor(previous); }
    } restoreInterceptor{interp, interp.frameInterceptor()};
    interp.setFrameInterceptor(&state.eagerFrames);
    state.timeline.ranAfter = [this, &state](const Segment& before, const Segment& after, int64_t ns) {
        auto split = std::find_if(splits_.begin(), splits_.end(), [&](const Split& s) { return s.before == &before && s.after == &after; });
        if (split == splits_.end()) split = splits_.insert(splits_.end(), Split{&before, &after, {}, state.frames});
        split->timing.ns += ns;
        ++split->timing.calls;
    };
    // A break in a function the frame calls, or in a loop, traces the frame again (Tracer::restarts).
    constexpr int kMaxRestarts = 8;
    const int moduleCalls = moduleCallsAround(interp, compiled, fn);
    std::map<const Expr*, BreakRecord> breaksAtCalls;
    Value result;
    for (int restarts = 0;; ++restarts) {
        // A compile's guards are built on the frame's locals as the call began.
        std::map<std::string, Value> locals = hit ? std::map<std::string, Value>{} : frameLocals(interp, fn, args);
        openSection(state, frame, hit, std::move(locals), compiledFrameLocals(interp, fn), &args, "",
                    restarts < kMaxRestarts ? restarts : -1);
        if (state.running->made) state.running->made->breaksAtCalls = breaksAtCalls;
        try {
            result = interp.callFunction(fn, args, true, 0, moduleCalls);
            break;
        } catch (const TraceRestart&) {
            Tracer::Restart restart = *state.running->tracer->restart();
            const std::string compileId = state.running->entry->compileId;
            // Dynamo's trace changed no global state; this one ran the Python (torch.set_grad_enabled
            // in _use_grad), whose finally the restart skipped: the grad mode is the call's again.
            setGradEnabled(state.running->entry->gradMode);
            state.running = nullptr;
            state.sections.pop_back();  // its tracer gone, the interpreter has the hooks it replaced
            state.frames.pop_back();
            if (restart.skipFrame) {
                frame->skipped = true;
                bus_.emit(EagerFallbackEvent{compileId, "", options.backend,
                                             "a graph break Dynamo does not resume from (in a loop or a try block): the frame is "
                                             "skipped and runs eagerly, each function it calls compiled in a frame of its own"});
                if (report) report->breaks.push_back(std::move(restart.record));
                return runIntercepting(interp, options, report, [&] { return interp.callFunction(fn, args, false, 0, moduleCalls); });
            }
            breaksAtCalls.emplace(restart.call, std::move(restart.record));
        } catch (const ScriptError& e) {
            if (state.running) state.running->tracer->exceptionEscaped(e, fn, moduleCalls);
            throw;
        }
    }
    if (state.running) closeSection(state, *state.running, result, false);
    return result;
}

void CompileManager::openSection(CallState& state, const std::shared_ptr<FrameState>& frame, CacheEntry* hit,
                                 std::map<std::string, Value> locals, std::vector<std::string> localNames, const CallArgs* args,
                                 const std::string& resumedAs, int restarts) {
    Interpreter& interp = state.interp;
    auto section = std::make_unique<Section>();
    section->frame = frame;
    section->locals = std::move(locals);
    section->localNames = std::move(localNames);
    state.frames.push_back(frame);
    if (hit) {
        section->entry = hit;
    } else {
        if (frame->frameId < 0) frame->frameId = nextFrameId_++;
        section->made = std::make_unique<CacheEntry>();
        CacheEntry& entry = *section->made;
        entry.compileId = fmt::format("{}/{}", frame->frameId, frame->entries.size());
        entry.gradMode = gradEnabled();
        entry.autocastCpu = autocastSetting(Device::Kind::Cpu);
        entry.autocastCuda = autocastSetting(Device::Kind::Cuda);
        entry.backend = state.options.cacheBackend();
        entry.dynamic = state.options.dynamic;
        entry.function = frame->qualname;
        entry.globals = state.fn.globals;
        // Dynamo names the builtins dict of each trace from one counter it also draws from for
        // each compiled graph and each graph break's restart and resume function.
        entry.builtinsDict = fmt::format("__builtins_dict___{}", uniqueIds_++);
        section->entry = &entry;
        section->restarted = restarts > 0;
        if (!section->restarted) {
            logger_.log("dynamo", LogLevel::Info, entry.compileId,
                        fmt::format("Step 1: torchdynamo start tracing {} {}:{}", frame->name, frame->where.file, frame->where.line));
            bus_.emit(CompileStartedEvent{entry.compileId, frame->qualname, frame->where, interp.userStack()});
        }
    }
    TraceContext context = traceContext(interp, *section->entry, *frame, state.options, !hit);
    context.resumedAs = resumedAs;
    if (!hit) context.outputGraph = outputGraphs_++;
    if (!hit)
        context.resolve = [&interp, locals = &section->locals, globals = section->made->globals.get()](const Source& source) {
            return resolveSource(source, *locals, interp, globals);
        };
    // The recorder learns direct calls, and tells a restart whether the code so far may run again.
    context.mayRestart = !hit && restarts >= 0;
    if (args && (state.learnsDirectCalls() || context.mayRestart)) {
        const Value function = state.compiled ? state.compiled->function
                                              : functionValue(state.fn);
        section->recorder = directRecorder(interp, function, state.fn, *args, *section->entry);
    }
    context.direct = section->recorder ? &*section->recorder : nullptr;
    context.timeline = &state.timeline;
    context.resume = [this, &state](ResumeRequest& request) { return resumeFrame(state, request); };
    context.breaksAtCalls = &section->entry->breaksAtCalls;
    context.endAtCall = [this, &state, entry = section->entry](const Expr& at, const BreakRecord& record, std::size_t frame) {
        entry->breaksAtCalls.emplace(&at, record);  // its cache hits end the graph there too
        closeRunning(state);
        state.interp.runUntracedUntilReturn(at, frame, &state.eagerFrames);
    };
    context.callEagerly = [this, &state](const Value& callee, CallArgs& callArgs) {
        closeRunning(state);  // Dynamo compiles the graph before the call, then the call's own frames
        return runIntercepting(state.interp, state.options, state.report, [&] { return state.interp.call(callee, callArgs); });
    };
    section->start = Clock::now();
    section->tracer = std::make_unique<Tracer>(interp, std::move(context));
    state.running = section.get();
    state.sections.push_back(std::move(section));
}

void CompileManager::closeSection(CallState& state, Section& section, const Value& result, bool resumed) {
    Tracer& tracer = *section.tracer;
    tracer.finish();
    if (section.recorder && state.learnsDirectCalls()) learnDirectCall(*section.entry, *section.recorder, result, state.fn);
    if (!section.made) return;  // a cache hit replayed
    CacheEntry& entry = *section.made;
    FrameState& frame = *section.frame;
    const std::vector<BreakRecord>& breaks = tracer.breaks();
    // A frame that returns with no op in its graph Dynamo skips ("no content in function call",
    // its SkipFrame): no cache entry or guards; it runs eagerly from now on, each function it
    // calls compiled in a frame of its own (a resume function after a last print, often).
    if (!resumed && !tracer.madeCalls() && breaks.empty() && !state.options.fullgraph) {
        frame.skipped = true;
        logger_.log("dynamo", LogLevel::Info, entry.compileId,
                    fmt::format("Skipping frame because no content in function call {} {} {}", frame.name, frame.where.file,
                                frame.where.line));
        bus_.emit(EagerFallbackEvent{entry.compileId, "", state.options.backend, "no content in function call: the frame is skipped"});
        return;
    }
    entry.guards = tracer.guards();
    // A trace that breaks restarts (Dynamo traces the frame again, knowing where it stops), and
    // so does one whose graph has a float an op read as a number (PyTorch's tensorify pass
    // specializes it; the discarded trace drew its builtins dict and graph name): the guards
    // read builtins from the restart's dict.
    const int drawnBefore = (resumed && !section.restarted ? 1 : 0) + (tracer.floatsReadByOps() ? 2 : 0);
    if (drawnBefore > 0) {
        constexpr std::string_view prefix = "__builtins_dict___";
        const int number = std::stoi(entry.builtinsDict.substr(prefix.size())) + drawnBefore;
        const std::string restarted = fmt::format("{}{}", prefix, number);
        for (Guard& g : entry.guards) {
            g.source = renamedGlobal(g.source, entry.builtinsDict, restarted);
            g.otherSource = renamedGlobal(g.otherSource, entry.builtinsDict, restarted);
        }
        if (tracer.floatsReadByOps()) uniqueIds_ += 2;
    }
    entry.checkOrder = guardCheckOrder(entry.guards, treeScope(state.interp, section.localNames, section.locals, entry));
    // Each break's restart and resume function (a restarted trace's restart was its own builtins dict).
    uniqueIds_ += 2 * static_cast<int>(breaks.size()) - (section.restarted ? 1 : 0);
    for (const BreakRecord& b : breaks) uniqueIds_ += b.torchContexts;  // ___context_manager_N, each
    outputGraphs_ += static_cast<int>(breaks.size()) - (section.restarted ? 1 : 0) + (tracer.floatsReadByOps() ? 1 : 0);
    for (const auto& segment : entry.segments) uniqueIds_ += segment.graph && segment.graph->opCount() > 0 ? 1 : 0;
    mergeSeenSizes(frame.seenSizes, tracer.liftedSizes());
    double seconds = std::chrono::duration<double>(Clock::now() - section.start).count();

    std::vector<std::string> guardLines;
    std::vector<int> guardSourceLines;
    for (const Guard& g : entry.guards) {
        guardLines.push_back(g.str());
        guardSourceLines.push_back(g.createdAtLine);
    }
    if (logger_.enabled("guards")) logGuardTree(state.interp, section);
    if (logger_.enabled("verbose_guards")) {
        std::string text = "GUARDS:";
        for (const Guard& g : entry.guards) text += fmt::format("\n{:<16}{}", g.typeLabel(), g.str());
        logger_.artifact("verbose_guards", entry.compileId, text);
    }
    bus_.emit(GuardsEvent{entry.compileId, guardLines, guardSourceLines});
    logger_.log("dynamo", LogLevel::Info, entry.compileId,
                fmt::format("Step 1: torchdynamo done tracing {} ({} graph(s), {} graph break(s))", frame.name,
                            entry.segments.size(), breaks.size()));
    ++compileCount_;
    if (ExplainReport* report = state.report) {
        for (const auto& s : entry.segments) report->graphs.push_back(s.graph);
        report->breaks.insert(report->breaks.end(), breaks.begin(), breaks.end());
        report->guards.insert(report->guards.end(), entry.guards.begin(), entry.guards.end());
        report->compileSeconds += seconds;
    }
    frame.entries.push_back(std::move(section.made));
}

void CompileManager::closeRunning(CallState& state) {
    Section& running = *state.running;
    if (running.closed) return;
    running.graphless = running.made && std::none_of(running.made->segments.begin(), running.made->segments.end(),
                                                     [](const Segment& s) { return s.graph && s.graph->opCount() > 0; });
    closeSection(state, running, Value(), true);
    running.closed = true;
}

std::shared_ptr<FrameState> CompileManager::resumeFrameState(const CallState& state, const std::string& key,
                                                             const std::string& name, const SourceLocation& where) {
    std::shared_ptr<FrameState> frame;
    if (!state.report) frame = resumeFrames_[key];
    if (!frame) {
        frame = std::make_shared<FrameState>();
        frame->name = frame->qualname = name;
        frame->where = where;
        if (!state.report) resumeFrames_[key] = frame;
    }
    return frame;
}

bool CompileManager::resumeFrame(CallState& state, ResumeRequest& request) {
    const FunctionObject& fn = state.fn;
    if (request.function != &fn || !fn.def) return false;
    // Where the code goes on and what it reads there are the code's: found once per break site.
    auto [site, fresh] = resumeSites_.try_emplace({request.at, request.branch ? int(*request.branch) : -1});
    if (fresh) site->second = liveAfter(*fn.def, *request.at, request.branch);
    const std::optional<std::set<std::string>>& live = site->second;
    if (!live) return false;
    auto [order, made] = bindingOrders_.try_emplace(fn.def);
    if (made) order->second = localsInBindingOrder(*fn.def);
    if (state.localOrder.empty()) state.localOrder = order->second;
    // The resume function's arguments: the locals bound now that the rest reads, in the order
    // the frame bound them (cell variables stay cells).
    std::vector<std::string> argnames;
    for (const std::string& name : state.localOrder)
        if (live->count(name) && request.scope->vars.count(name) && !fn.def->nestedReads.count(name)) argnames.push_back(name);

    // A SymInt the resume frame gets is an output of the graph before the break: Dynamo compiles
    // that graph even where it has no op (return (s77,)), which takes a unique id.
    bool symIntOutput = std::any_of(request.stack.begin(), request.stack.end(), [](const Value* v) { return holdsSymInt(*v); });
    for (const std::string& name : argnames) symIntOutput = symIntOutput || holdsSymInt(request.scope->vars[name]);
    Section& running = *state.running;
    closeRunning(state);
    if (symIntOutput && running.graphless) ++uniqueIds_;
    state.interp.setTracer(running.tracer->previousHooks());
    state.running = nullptr;

    // Its frame: ___stack0 ... (the values left on the stack), then the arguments; each value
    // read from it from now on is the resume frame's.
    std::vector<std::string> names = {"__nested_resume_fns", "__nested_frame_values"};
    std::map<std::string, Value> locals;
    auto take = [&](const std::string& name, Value& value) {
        names.push_back(name);
        concretizeSymInts(value);
        locals[name] = value.unsourced();
        value = state.interp.withSource(value.unsourced(), localSource(name));
    };
    for (std::size_t i = 0; i < request.stack.size(); ++i) take(fmt::format("___stack{}", i), *request.stack[i]);
    for (const std::string& name : argnames) take(name, request.scope->vars[name]);
    state.localOrder = argnames;
    for (const std::string& name : order->second)
        if (std::find(argnames.begin(), argnames.end(), name) == argnames.end()) state.localOrder.push_back(name);

    // Named by the code's own name and line (optimizer.py's wrapper, functools.wraps'd as step, at
    // PyTorch's line of it).
    SourceLocation where = fn.definedAt();
    where.line = request.line;
    if (!state.interp.isScriptFile(where.file)) {
        std::string line = state.interp.sourceLine(where);
        line.erase(0, line.find_first_not_of(" \t"));
        if (std::optional<TorchPlace> place = torchPlaceOf(fn.codeQualname, codeOf(line))) {
            where.file = std::string(place->file);
            where.line = place->line;
        }
    }
    const std::string name = fmt::format("torch_dynamo_resume_in_{}_at_{}", fn.codeName, where.line);
    std::string key = fmt::format("{}:{}:{}", static_cast<const void*>(request.at), request.branch ? int(*request.branch) : -1,
                                  request.stack.size());
    for (const std::string& a : argnames) key += "," + a;
    std::shared_ptr<FrameState> frame = resumeFrameState(state, key, name, where);
    // the rest runs eagerly (a resume frame Dynamo skipped once, it skips from then on)
    if (stance_ == "force_eager" || frame->skipped || !hasTorchInFrame(state.interp, fn, locals)) return true;
    Failures failed;
    CacheEntry* hit = lookup(state.interp, *frame, locals, state.options, failed);
    if (!hit && !mayCompile(state.interp, *frame, failed, state.options)) return true;  // the rest runs eagerly
    openSection(state, frame, hit, std::move(locals), std::move(names), nullptr, name);
    // A tensor on the stack it was given is the resume function's input (another value is
    // guarded where the code consumes it; a None print returned, never).
    for (Value* value : request.stack)
        if (value->isTensor() && value->source) state.running->tracer->onStackInput(*value);
    return true;
}

std::optional<Value> CompileManager::directCall(Interpreter& interp, const Value& function, const FunctionObject& fn,
                                                const CallArgs& args, const CacheEntry& entry) {
    // A direct call leaves no op spans: a profiled run replays, as its trace should show the ops.
    if (Profiler::active() || entry.directPlans.empty()) return std::nullopt;
    Value bound = boundArguments(interp, fn, args);
    for (const DirectCallPlan& plan : entry.directPlans) {
        if (!plan.matches(function, bound)) continue;
        ++directCallCount_;
        return plan.run(bound, plan.segment() >= 0 ? &entry.segments[static_cast<size_t>(plan.segment())].run : nullptr);
    }
    return std::nullopt;
}

std::optional<DirectCallRecorder> CompileManager::directRecorder(Interpreter& interp, const Value& function, const FunctionObject& fn,
                                                                 const CallArgs& args, const CacheEntry& entry) const {
    constexpr size_t kMaxPlans = 4;  // a call whose state changes every time would only fill the list
    if (entry.directPlans.size() >= kMaxPlans) return std::nullopt;
    std::vector<std::string> names;
    Value bound = boundArguments(interp, fn, args, &names);
    return DirectCallRecorder(function, bound, std::move(names));
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
    auto scratch = std::make_shared<FrameState>();  // explain() compiles afresh and leaves the session's caches alone
    scratch->frameId = nextFrameId_++;
    scratch->name = fn.codeName;
    scratch->qualname = fn.codeQualname;
    scratch->where = frameLocation(interp, fn);
    CompileOptions options;
    options.backend = "eager";
    result = runTraced(interp, nullptr, fn, args, scratch, nullptr, options, &report);
    return report;
}

void CompileManager::reset() {
    frames_.clear();
    resumeFrames_.clear();
    splits_.clear();
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
    // As PyTorch's explain(): one break fewer than graphs (-1 where it compiled none).
    std::string out = fmt::format("Graph Count: {}\nGraph Break Count: {}\nOp Count: {}\n", graphs.size(),
                                  static_cast<int>(graphs.size()) - 1, opCount());
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
