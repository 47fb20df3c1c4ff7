// The `torch` namespace scripts import: op functions, dtypes, torch.compile, torch._dynamo,
// torch._logging, torch.nn.functional, torch.profiler; plus the small `math` module.
#include <chrono>
#include <cmath>
#include <numbers>
#include <optional>
#include <thread>

#include "core/grad_mode.h"
#include "core/inductor_config.h"
#include "core/parallel.h"
#include "core/random.h"
#include "ops/op_registry.h"
#include "core/device_context.h"
#include "runtime/cuda_driver.h"
#include "script/graph_break_kinds.h"
#include "script/interpreter.h"
#include "script/out_argument.h"
#include "script/whole_float.h"

namespace fusescope {

namespace {

std::shared_ptr<ModuleObject> makeModule(const std::string& name) {
    auto m = std::make_shared<ModuleObject>();
    m->name = name;
    return m;
}

Value opFunction(const std::string& qualified, const OpDef& op, CallStyle style) {
    std::string name = op.name;
    const OpDef* def = &op;
    // F.softmax(input, dim, _stacklevel=3, dtype=None): PyTorch's Python signature has the frame
    // its deprecation warning names after dim (nn.Softmax passes 5); the op has no such argument.
    const bool stackLevel = style == CallStyle::Functional && (name == "softmax" || name == "log_softmax");
    return makeBuiltin(qualified, [name, def, style, stackLevel](Interpreter& in, CallArgs& a) {
        if (stackLevel) {
            std::erase_if(a.kwargs, [](const auto& kw) { return kw.first == "_stacklevel"; });
            if (a.args.size() >= 3) a.args.erase(a.args.begin() + 2);
        }
        auto out = std::find_if(a.kwargs.begin(), a.kwargs.end(), [](const auto& kw) { return kw.first == "out"; });
        if (style != CallStyle::TorchFunction || out == a.kwargs.end()) return in.callOp(name, style, a.args, a.kwargs, in.currentSite());
        Value target = out->second;
        a.kwargs.erase(out);
        return writeToOut(in, name, a, in.callOp(name, style, a.args, a.kwargs, in.currentSite()), target);
    });
}

CompileOptions parseCompileOptions(Interpreter& in, const CallArgs& a, size_t firstOption, bool backendPositional) {
    CompileOptions options;
    const Value* backend = a.kwarg("backend");
    if (!backend && backendPositional && a.args.size() > firstOption) backend = &a.args[firstOption];
    if (backend && !backend->isNone()) {
        if (!backend->isString())
            in.fail("NotImplementedError", "backend must be given by name (eager, aot_eager, inductor); callables are not supported yet");
        options.backend = backend->asString();
    }
    if (const Value* dynamic = a.kwarg("dynamic"); dynamic && !dynamic->isNone())
        options.dynamic = in.truthy(*dynamic) ? "true" : "false";
    if (const Value* fn = a.kwarg("guard_fail_fn")) options.guardFailFn = *fn;
    for (const char* name : {"fullgraph", "nopython"})
        if (const Value* v = a.kwarg(name)) options.fullgraph = options.fullgraph || in.truthy(*v);
    for (const auto& [k, v] : a.kwargs) {
        static const std::set<std::string> known = {"backend", "dynamic", "guard_fail_fn", "fullgraph", "mode",
                                                    "nopython", "options", "disable"};
        if (!known.count(k)) in.fail("TypeError", "unexpected keyword argument '" + k + "'");
    }
    return options;
}

// torch.compile of a function, a bound method (its function, with self bound), or a module, as
// PyTorch's OptimizedModule: a forward of the script's is compiled as its frame (torch.nn's
// __call__ around it is skipped), torch.nn's own through external_utils.py's wrapper frame.
Value compiled(const Value& fn, CompileOptions options, Interpreter& in) {
    auto c = std::make_shared<CompiledFunctionObject>();
    c->options = std::move(options);
    if (auto* already = fn.as<CompiledFunctionObject>()) {
        c->function = already->function;
        c->boundSelf = already->boundSelf;
        c->module = already->module;
        c->isModule = already->isModule;
    } else if (auto* bound = fn.as<BoundMethodObject>(); bound && bound->function.as<FunctionObject>()) {
        c->function = bound->function;
        c->boundSelf = bound->self;
    } else if (const ClassPtr* cls = instanceClass(fn)) {
        const Value* forward = (*cls)->lookup("forward");
        if (!forward || !forward->as<FunctionObject>())
            in.fail("TypeError", "torch.compile expects a function or an nn.Module with a forward method, got '" + (*cls)->name + "'");
        if (in.isScriptFile(forward->as<FunctionObject>()->definedAt().file)) {
            c->function = *forward;
            c->boundSelf = fn;
        } else {
            c->function = in.wrapInline(fn);
        }
        c->module = fn;
        c->isModule = true;
    } else if (fn.as<FunctionObject>()) {
        c->function = fn;
    } else {
        in.fail("TypeError", "torch.compile expects a function defined in the script, got '" + pythonTypeName(fn) + "'");
    }
    in.host().compiledFunctionMade();
    in.importDynamo();
    return Value(ObjectPtr(c));
}

// inference_mode(): grad mode off, and torch.is_inference_mode_enabled() true, in its block.
bool inferenceMode = false;

// Sets grad mode to `on` on entering (or at once, `now`) and restores the previous mode on exit;
// `inference` sets inference mode as well.
Value gradModeManager(const std::string& name, bool on, bool now, bool inference = false) {
    struct Previous {
        bool grad = gradEnabled(), inference = inferenceMode;
    };
    auto previous = std::make_shared<Previous>();
    auto cm = std::make_shared<ContextManagerObject>();
    cm->name = name;
    if (now) setGradEnabled(on);
    cm->enter = [previous, on, now, inference](Interpreter&) {
        if (!now) *previous = Previous{};
        setGradEnabled(on);
        if (inference) inferenceMode = true;
        return Value();
    };
    cm->exit = [previous](Interpreter&) {
        setGradEnabled(previous->grad);
        inferenceMode = previous->inference;
    };
    if (!now) cm->remake = [name, on, inference] { return gradModeManager(name, on, false, inference); };
    return Value(ObjectPtr(cm));
}

Value decorator(CompileOptions options) {
    return makeBuiltin("torch.compile.<decorator>", [options](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1) in.fail("TypeError", "the compile decorator takes exactly one function");
        return compiled(a.args[0], options, in);
    });
}

}  // namespace

Value makeTorchModule(ConfigModules& configs) {
    auto torch = makeModule("torch");
    auto nn = makeModule("torch.nn");
    auto functional = makeModule("torch.nn.functional");
    auto dynamo = makeModule("torch._dynamo");
    auto config = makeModule("torch._dynamo.config");
    auto logging = makeModule("torch._logging");
    auto profiler = makeModule("torch.profiler");
    auto cuda = makeModule("torch.cuda");
    auto autograd = makeModule("torch.autograd");
    auto optim = makeModule("torch.optim");  // its optimizers come from the script library (torch/optim.py)

    const char* const memoryFormats[] = {"contiguous_format", "preserve_format", "channels_last", "channels_last_3d"};
    for (int64_t code = 0; code < 4; ++code) {  // c10::MemoryFormat's order
        auto format = std::make_shared<MemoryFormatObject>();
        format->code = code;
        format->name = memoryFormats[code];
        torch->attrs[format->name] = Value(ObjectPtr(format));
    }
    const OpRegistry& registry = OpRegistry::instance();
    for (const std::string& name : registry.names()) {
        const OpDef* op = registry.find(name);
        if (op->isFunction) torch->attrs[name] = opFunction("torch." + name, *op, CallStyle::TorchFunction);
        if (op->isFunctional)
            functional->attrs[name] = opFunction("torch.nn.functional." + name, *op, CallStyle::Functional);
    }

    for (const auto& [alias, dtype] : std::vector<std::pair<std::string, DType>>{
             {"float32", DType::Float32}, {"float", DType::Float32}, {"float64", DType::Float64},
             {"double", DType::Float64}, {"float16", DType::Float16}, {"half", DType::Float16},
             {"bfloat16", DType::BFloat16}, {"int64", DType::Int64}, {"long", DType::Int64},
             {"int32", DType::Int32}, {"int", DType::Int32}, {"bool", DType::Bool}, {"complex64", DType::Complex64},
             {"cfloat", DType::Complex64}, {"complex128", DType::Complex128}, {"cdouble", DType::Complex128}})
        torch->attrs[alias] = Value(dtype);
    torch->attrs["inf"] = Value(std::numeric_limits<double>::infinity());
    torch->attrs["nan"] = Value(std::numeric_limits<double>::quiet_NaN());
    torch->attrs["pi"] = Value(std::numbers::pi);
    torch->attrs["e"] = Value(std::numbers::e);

    auto tensorType = std::make_shared<TypeObject>();
    tensorType->name = "Tensor";
    tensorType->module = "torch";
    torch->attrs["Tensor"] = Value(ObjectPtr(tensorType));
    // torch.Size(iterable of ints): the tuple a tensor's shape is.
    torch->attrs["Size"] = makeType("Size", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() > 1 || !a.kwargs.empty()) in.fail("TypeError", "torch.Size() takes at most 1 argument");
        auto size = std::make_shared<SizeObject>();
        if (!a.args.empty()) size->items = in.iterate(a.args[0]);
        for (size_t i = 0; i < size->items.size(); ++i)
            if (!size->items[i].isInt())
                in.fail("TypeError", fmt::format("torch.Size() takes an iterable of 'int' (item {} is '{}')", i, pythonTypeName(size->items[i])));
        return Value(ObjectPtr(size));
    }, "torch");
    torch->attrs["split"] = makeBuiltin("torch.split", [](Interpreter& in, CallArgs& a) { return splitTensor(in, a, false); });
    torch->attrs["chunk"] = makeBuiltin("torch.chunk", [](Interpreter& in, CallArgs& a) { return splitTensor(in, a, true); });
    // nn.Parameter(data, requires_grad=True): the data's storage, as a leaf marked a parameter.
    nn->attrs["Parameter"] = makeType("Parameter", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() > 2) in.fail("TypeError", "Parameter() takes at most 2 arguments");
        const Value* data = a.kwarg("data");
        Value given = data ? *data : a.args.empty() ? Value() : a.args[0];
        Tensor source = given.isNone() ? Tensor::empty({0}, DType::Float32) : given.isTensor() ? given.asTensor() : Tensor();
        if (!source.defined()) in.fail("TypeError", "Parameter(): data must be a Tensor, not " + pythonTypeName(given));
        const Value* grad = a.kwarg("requires_grad");
        bool requiresGrad = grad ? in.truthy(*grad) : a.args.size() > 1 ? in.truthy(a.args[1]) : true;
        auto impl = std::make_shared<TensorImpl>(*source.impl());
        impl->autograd = {};
        impl->requiresGrad = requiresGrad;
        impl->isParameter = true;
        return Value(Tensor(impl));
    }, "torch.nn.parameter");
    // torch.dtype: the type of torch.float32 and its kin (isinstance(x, torch.dtype)).
    torch->attrs["dtype"] = makeType("dtype", [](Interpreter& in, CallArgs&) -> Value {
        in.fail("TypeError", "cannot create 'torch.dtype' instances");
    }, "torch");
    torch->attrs["device"] = makeType("device", [](Interpreter& in, CallArgs& a) {
        if (a.args.empty() || !a.args[0].isString()) in.fail("TypeError", "torch.device() expects a string like 'cpu'");
        auto d = Device::parse(a.args[0].asString());
        if (!d) in.fail("RuntimeError", "Expected one of cpu, cuda, meta device type at start of device string: " + a.args[0].asString());
        return Value(*d);
    }, "torch");
    torch->attrs["manual_seed"] = makeBuiltin("torch.manual_seed", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1 || !a.args[0].isInt()) in.fail("TypeError", "manual_seed() expects one int");
        if (in.tracer()) in.tracer()->onUntracedEffect("it seeds the random generator");
        manualSeed(static_cast<uint64_t>(a.args[0].asInt()));
        return Value();
    });
    // The threads eager kernels split their work across (core/parallel.h).
    torch->attrs["get_num_threads"] = makeBuiltin("torch.get_num_threads", [](Interpreter&, CallArgs&) {
        return Value(int64_t{parallelThreads()});
    });
    torch->attrs["set_num_threads"] = makeBuiltin("torch.set_num_threads", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1) in.fail("TypeError", "set_num_threads() takes exactly one argument");
        if (!a.args[0].isInt()) in.fail("RuntimeError", "set_num_threads expects an int, but got " + pythonTypeName(a.args[0]));
        if (a.args[0].asInt() <= 0) in.fail("RuntimeError", "set_num_threads expects a positive integer");
        setParallelThreads(static_cast<int>(std::min<int64_t>(a.args[0].asInt(), 1024)));
        return Value();
    });
    torch->attrs["get_default_dtype"] = makeBuiltin("torch.get_default_dtype", [](Interpreter&, CallArgs&) {
        return Value(defaultFloat());
    });
    torch->attrs["is_tensor"] = makeBuiltin("torch.is_tensor", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1) in.fail("TypeError", "is_tensor() takes one argument");
        return Value(a.args[0].isTensor());
    });
    torch->attrs["compile"] = makeBuiltin("torch.compile", [](Interpreter& in, CallArgs& a) {
        CompileOptions options = parseCompileOptions(in, a, 1, false);
        if (a.args.empty() || a.args[0].isNone()) return decorator(options);
        return compiled(a.args[0], options, in);
    });

    dynamo->attrs["optimize"] = makeBuiltin("torch._dynamo.optimize", [](Interpreter& in, CallArgs& a) {
        return decorator(parseCompileOptions(in, a, 0, true));
    });
    dynamo->attrs["graph_break"] = makeBuiltin("torch._dynamo.graph_break", [](Interpreter& in, CallArgs& a) {
        if (in.tracer()) in.tracer()->graphBreak(graph_breaks::userGraphBreak(a.args, a.kwargs));
        return Value();
    });
    // torch._disable_dynamo and torch.compiler.disable, as PyTorch's decorators (plain or
    // called with arguments): Dynamo does not trace the function they return, whose call
    // breaks the graph. That is a wrapper, as PyTorch's (functools.wraps'd): the function
    // itself stays traceable (optimizer.py's maybe_fallback calls both).
    auto skipDecorator = [](const char* name, FunctionObject::DynamoSkip skip) {
        auto mark = [name, skip](Interpreter& in, const Value& fn, const std::string& reason) {
            auto* f = fn.as<FunctionObject>();
            if (!f) in.fail("TypeError", std::string(name) + " expects a function defined in Python");
            auto wrapper = std::make_shared<FunctionObject>(*f);
            if (f->attributes) wrapper->attributes = std::make_shared<DictObject>(*f->attributes);
            wrapper->dynamoSkip = skip;
            wrapper->dynamoSkipReason = reason;
            if (skip == FunctionObject::DynamoSkip::Disabled) in.importDynamo();  // torch.compiler.disable imports it to decorate
            return Value(ObjectPtr(wrapper));
        };
        return makeBuiltin(name, [name, mark](Interpreter& in, CallArgs& a) {
            const Value* given = a.kwarg("reason");
            const std::string reason = given && given->isString() ? given->asString() : "";
            if (!a.args.empty() && !a.args[0].isNone()) return mark(in, a.args[0], reason);
            return makeBuiltin(std::string(name) + ".<decorator>", [name, mark, reason](Interpreter& in2, CallArgs& b) {
                if (b.args.size() != 1) in2.fail("TypeError", std::string(name) + "'s decorator takes the function");
                return mark(in2, b.args[0], reason);
            });
        });
    };
    torch->attrs["_disable_dynamo"] = skipDecorator("torch._disable_dynamo", FunctionObject::DynamoSkip::Skipped);
    // True while Dynamo traces the code calling it (the optimizers keep their step count a
    // tensor then, so a compiled step does not bake it in as a constant).
    auto compiler = makeModule("torch.compiler");
    compiler->attrs["is_compiling"] = makeBuiltin("torch.compiler.is_compiling", [](Interpreter& in, CallArgs&) {
        return Value(in.tracer() != nullptr);
    });
    dynamo->attrs["is_compiling"] = compiler->attrs["is_compiling"];
    compiler->attrs["disable"] = skipDecorator("torch.compiler.disable", FunctionObject::DynamoSkip::Disabled);
    torch->attrs["compiler"] = Value(ObjectPtr(compiler));
    // _dynamic_shape_op(aten_name, t): whether each element of t is non-zero, flattened, for
    // the library's ops whose output shape depends on t's data (nonzero, masked_select,
    // t[mask]): a compiled graph breaks there, as Dynamo's does at that op.
    dynamo->attrs["_dynamic_shape_op"] = makeBuiltin("torch._dynamo._dynamic_shape_op", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 2 || !a.args[0].isString() || !a.args[1].isTensor())
            in.fail("TypeError", "_dynamic_shape_op(aten_name, tensor)");
        const Tensor t = in.realTensor(a.args[1].asTensor(), [&a] {
            return graph_breaks::dynamicShapeOperator(a.args[0].asString(), graph_breaks::kCallInstruction);
        });
        ValueList flags;
        for (int64_t i = 0; i < t.numel(); ++i) flags.push_back(Value(t.readDouble(i) != 0.0));
        return makeList(std::move(flags));
    });
    // mark_dynamic(t, index): t's dims `index` (an int or a list of them) are symbolic in the
    // compiles that lift t, from the first on; a recompile on their size is not needed.
    dynamo->attrs["mark_dynamic"] = makeBuiltin("torch._dynamo.mark_dynamic", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 2 || !a.args[0].isTensor())
            in.fail("TypeError", "mark_dynamic(t, index) takes a tensor and a dim or a list of dims");
        const Tensor& t = a.args[0].asTensor();
        ValueList dims = a.args[1].isInt() ? ValueList{a.args[1]} : in.iterate(a.args[1]);
        for (const Value& dim : dims) {
            if (!dim.isInt()) in.fail("TypeError", "mark_dynamic's dims must be ints, not " + pythonTypeName(dim));
            int64_t d = dim.asInt() < 0 ? dim.asInt() + t.dim() : dim.asInt();
            if (d < 0 || d >= t.dim())
                in.fail("IndexError", fmt::format("Dimension out of range (expected to be in range of [{}, {}], but got {})",
                                                  -t.dim(), t.dim() - 1, dim.asInt()));
            auto& marked = t.impl()->dynamoDynamicDims;
            if (std::find(marked.begin(), marked.end(), d) == marked.end()) marked.push_back(d);
        }
        return Value();
    });
    dynamo->attrs["reset"] = makeBuiltin("torch._dynamo.reset", [](Interpreter& in, CallArgs&) {
        if (in.tracer()) in.tracer()->graphBreak(graph_breaks::skippedDynamoFunction("reset"));
        in.host().resetDynamo();
        return Value();
    });
    // What torch.compiler.set_stance (torch/_stance.py) sets; returns the previous stance.
    dynamo->attrs["_set_stance"] = makeBuiltin("torch._dynamo._set_stance", [](Interpreter& in, CallArgs& a) {
        if (in.tracer()) in.fail("RuntimeError", "attempted to set_stance in a torch.compile region");
        if (a.args.size() != 1 || !a.args[0].isString()) in.fail("TypeError", "_set_stance() takes the stance's name");
        return Value(in.host().setCompileStance(a.args[0].asString()));
    });
    dynamo->attrs["explain"] = makeBuiltin("torch._dynamo.explain", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1) in.fail("TypeError", "explain() takes the function to explain");
        Value fn = a.args[0];
        if (auto* c = fn.as<CompiledFunctionObject>()) fn = c->function;
        if (!fn.as<FunctionObject>()) in.fail("TypeError", "explain() expects a function defined in the script");
        return makeBuiltin("torch._dynamo.explain.<runner>", [fn](Interpreter& in2, CallArgs& args) {
            return in2.host().explain(in2, fn, args);
        });
    });
    config->attrs["recompile_limit"] = Value(int64_t{8});
    config->aliases["cache_size_limit"] = "recompile_limit";
    config->attrs["automatic_dynamic_shapes"] = Value(true);
    config->attrs["force_parameter_static_shapes"] = Value(true);
    config->attrs["allow_rnn"] = Value(false);  // nn.RNN/LSTM/GRU calls break the graph (torch/nn/rnn.py)
    // True unlike PyTorch: a failing backend compile logs WON'T CONVERT and the graph runs
    // eagerly, so the script goes on and the workbench shows what failed.
    config->attrs["suppress_errors"] = Value(true);
    configs.dynamo = config.get();
    dynamo->attrs["config"] = Value(ObjectPtr(config));

    logging->attrs["set_logs"] = makeBuiltin("torch._logging.set_logs", [](Interpreter& in, CallArgs& a) {
        if (!a.args.empty()) in.fail("TypeError", "set_logs() takes keyword arguments only");
        in.host().setLogs(a);
        return Value();
    });

    populateProfilerModule(*profiler);
    populateCheckpointFunctions(*torch);
    populateAutocastFunctions(*torch);
    // Grad mode (core/grad_mode.h) for the block; set_grad_enabled(mode) takes effect at the
    // call already, as in PyTorch, so it also works as a plain statement.
    for (const char* name : {"no_grad", "enable_grad", "inference_mode"})
        torch->attrs[name] = makeBuiltin(std::string("torch.") + name, [name](Interpreter& in, CallArgs& a) {
            bool on = std::string(name) == "enable_grad";
            // @torch.no_grad without parentheses: the function is the argument.
            const bool decorates = a.args.size() == 1 && !a.args[0].isBool();
            if (std::string(name) == "inference_mode" && !a.args.empty() && !decorates) on = !in.truthy(a.args[0]);
            const bool inference = std::string(name) == "inference_mode" && !on;
            Value manager = gradModeManager(name, on, false, inference);
            return decorates ? in.decorateWithContext(*manager.as<ContextManagerObject>(), a.args[0]) : manager;
        });
    torch->attrs["set_grad_enabled"] = makeBuiltin("torch.set_grad_enabled", [](Interpreter& in, CallArgs& a) {
        const Value* mode = a.args.empty() ? a.kwarg("mode") : &a.args[0];
        if (!mode) in.fail("TypeError", "set_grad_enabled() missing required argument 'mode'");
        return gradModeManager("set_grad_enabled", in.truthy(*mode), true);
    });
    torch->attrs["is_grad_enabled"] = makeBuiltin("torch.is_grad_enabled", [](Interpreter&, CallArgs&) {
        return Value(gradEnabled());
    });
    torch->attrs["is_inference_mode_enabled"] = makeBuiltin("torch.is_inference_mode_enabled", [](Interpreter&, CallArgs&) {
        return Value(inferenceMode);
    });
    // torch.cuda: a cuda device exists when cuda tensors can be made (core/device_context.h).
    cuda->attrs["is_available"] = makeBuiltin("torch.cuda.is_available", [](Interpreter&, CallArgs&) {
        return Value(cudaTensorsAvailable());
    });
    cuda->attrs["device_count"] = makeBuiltin("torch.cuda.device_count", [](Interpreter&, CallArgs&) {
        return Value(int64_t(cudaTensorsAvailable() ? 1 : 0));
    });
    cuda->attrs["current_device"] = makeBuiltin("torch.cuda.current_device", [](Interpreter& in, CallArgs&) {
        if (!cudaTensorsAvailable()) in.fail("RuntimeError", currentDeviceContext().cudaUnavailableReason);
        return Value(int64_t(0));
    });
    // Waits for every kernel queued on the GPU (a script times them so); under GPU code
    // generation only, cuda tensors compute on the host and there is nothing to wait for.
    cuda->attrs["synchronize"] = makeBuiltin("torch.cuda.synchronize", [](Interpreter& in, CallArgs&) {
        if (!cudaTensorsAvailable()) in.fail("RuntimeError", currentDeviceContext().cudaUnavailableReason);
        if (cudaKernelsRunOnGpu()) cudaCheck(cudaApi().cuCtxSynchronize(), "cuCtxSynchronize");
        return Value();
    });
    torch->attrs["set_default_device"] = makeBuiltin("torch.set_default_device", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1) in.fail("TypeError", "set_default_device() takes one argument");
        std::optional<Device> device = a.args[0].isNone() ? Device::cpu() : std::optional<Device>{};
        if (a.args[0].isString()) device = Device::parse(a.args[0].asString());
        else if (a.args[0].isDevice()) device = a.args[0].asDevice();
        if (!device) in.fail("RuntimeError", "set_default_device() expects a device like 'cuda' or 'cpu'");
        setDefaultDevice(*device);
        return Value();
    });
    torch->attrs["get_default_device"] = makeBuiltin("torch.get_default_device", [](Interpreter&, CallArgs&) {
        return Value(defaultDevice());
    });

    auto inductor = makeModule("torch._inductor");
    auto testOperators = makeModule("torch._inductor.test_operators");
    testOperators->attrs["realize"] = opFunction("torch._inductor.test_operators.realize",
                                                 *OpRegistry::instance().find("realize"), CallStyle::TorchFunction);
    inductor->attrs["test_operators"] = Value(ObjectPtr(testOperators));
    auto inductorConfig = makeModule("torch._inductor.config");
    for (const InductorSetting& setting : inductorSettings())
        inductorConfig->attrs[std::string(setting.name)] = Value(int64_t{InductorConfig{}.*setting.field});
    configs.inductor = inductorConfig.get();
    inductor->attrs["config"] = Value(ObjectPtr(inductorConfig));
    torch->attrs["_inductor"] = Value(ObjectPtr(inductor));

    nn->attrs["functional"] = Value(ObjectPtr(functional));
    torch->attrs["nn"] = Value(ObjectPtr(nn));
    torch->attrs["_dynamo"] = Value(ObjectPtr(dynamo));
    torch->attrs["_logging"] = Value(ObjectPtr(logging));
    torch->attrs["profiler"] = Value(ObjectPtr(profiler));
    torch->attrs["cuda"] = Value(ObjectPtr(cuda));
    populateAutogradModule(*autograd);
    // torch.autograd.profiler.record_function is torch.profiler's (torch.optim's steps use that name).
    auto autogradProfiler = std::make_shared<ModuleObject>();
    autogradProfiler->name = "torch.autograd.profiler";
    autogradProfiler->attrs["record_function"] = profiler->attrs.at("record_function");
    autograd->attrs["profiler"] = Value(ObjectPtr(autogradProfiler));
    torch->attrs["autograd"] = Value(ObjectPtr(autograd));
    torch->attrs["optim"] = Value(ObjectPtr(optim));
    torch->attrs["distributed"] = makeDistributedModule();
    return Value(ObjectPtr(torch));
}

Value makeLoggingModule() {
    auto logging = makeModule("logging");
    logging->attrs["DEBUG"] = Value(int64_t{10});
    logging->attrs["INFO"] = Value(int64_t{20});
    logging->attrs["WARNING"] = Value(int64_t{30});
    logging->attrs["ERROR"] = Value(int64_t{40});
    return Value(ObjectPtr(logging));
}

// time: the clocks a script times its own calls with (as benchmarks under PyTorch do).
Value makeTimeModule() {
    auto time = makeModule("time");
    auto clock = [&](const std::string& name, auto now) {
        time->attrs[name] = makeBuiltin("time." + name, [name, now](Interpreter& in, CallArgs& a) {
            if (!a.args.empty() || !a.kwargs.empty()) in.fail("TypeError", "time." + name + "() takes no arguments");
            if (in.tracer()) in.tracer()->onUntracedEffect("it reads the clock");  // each call reads it anew
            return now();
        });
    };
    auto since = [](auto epoch) { return std::chrono::duration<double>(epoch).count(); };
    clock("perf_counter", [since] { return Value(since(std::chrono::steady_clock::now().time_since_epoch())); });
    clock("monotonic", [since] { return Value(since(std::chrono::steady_clock::now().time_since_epoch())); });
    clock("time", [since] { return Value(since(std::chrono::system_clock::now().time_since_epoch())); });
    time->attrs["sleep"] = makeBuiltin("time.sleep", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1 || !a.args[0].isNumber()) in.fail("TypeError", "time.sleep() takes one number of seconds");
        const double seconds = a.args[0].isFloat() ? a.args[0].asFloat() : static_cast<double>(a.args[0].isInt() ? a.args[0].asInt() : a.args[0].asBool());
        if (seconds < 0) in.fail("ValueError", "sleep length must be non-negative");
        if (in.tracer()) in.tracer()->onUntracedEffect("it sleeps");
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
        return Value();
    });
    clock("perf_counter_ns", [] {
        return Value(static_cast<int64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count()));
    });
    return Value(ObjectPtr(time));
}


}  // namespace fusescope
