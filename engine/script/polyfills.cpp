// Dynamo's substitute_in_graph: in traced code, a call of a builtin that Dynamo does not fold
// runs the polyfill PyTorch runs in its place (torch/_dynamo/polyfills/; the library has copies
// written as PyTorch's), so capture traces its frames and makes its guards: sum(generator) reads
// functools.reduce, operator.add and iter through them, as Dynamo's guards say. And the
// opposite case: library functions Dynamo does not trace into, as it makes the call itself.
#include "script/interpreter.h"
#include "script/torch_names.h"

namespace fusescope {

namespace {

// A value Dynamo holds as a Python constant: a number, string or None, or a list or tuple of them.
bool isConstant(const Value& v) {
    if (v.isNone() || v.isBool() || v.isString() || (v.isInt() && !v.symbolic()) || (v.isFloat() && !v.symbolicFloat())) return true;
    const ValueList* items = sequenceItems(v);
    return (v.as<ListObject>() || v.as<TupleObject>()) && std::all_of(items->begin(), items->end(), isConstant);
}

bool allConstant(const CallArgs& args) {
    return std::all_of(args.args.begin(), args.args.end(), isConstant) &&
           std::all_of(args.kwargs.begin(), args.kwargs.end(), [](const auto& kv) { return isConstant(kv.second); });
}

// sum of a list or tuple of ints (SymInts among them): Dynamo adds them in the graph itself.
bool sumOfInts(const CallArgs& args) {
    if (args.args.size() != 1 || !args.kwargs.empty() || !(args.args[0].as<ListObject>() || args.args[0].as<TupleObject>())) return false;
    const ValueList& items = *sequenceItems(args.args[0]);
    return std::all_of(items.begin(), items.end(), [](const Value& v) { return v.isInt() && !v.isBool(); });
}

}  // namespace

std::optional<Value> Interpreter::dynamoPolyfill(const Value& callee, const CallArgs& args) {
    if (!tracer_ || !stack_.back().traced || !callee.isObject()) return std::nullopt;
    struct Substitute {
        const char* module;  // the builtin's
        const char* name;
        const char* polyfills;  // the library's copy of PyTorch's polyfill module
        bool foldsConstants;    // can_constant_fold_through
    };
    static const Substitute substitutes[] = {
        {"builtins", "sum", "torch._dynamo.polyfills.builtins", true},
        {"functools", "reduce", "torch._dynamo.polyfills.functools", false},
        {"operator", "add", "torch._dynamo.polyfills.operator", true},
        {"operator", "sub", "torch._dynamo.polyfills.operator", true},
        {"operator", "mul", "torch._dynamo.polyfills.operator", true},
    };
    for (const Substitute& s : substitutes) {
        const std::string module = s.module;
        const Value* builtin = module == "builtins" ? findBuiltin(s.name) : nullptr;
        if (module != "builtins")
            if (const ModuleObject* loaded = loadedModule(module)) builtin = loaded->find(s.name);
        if (!builtin || !builtin->isObject() || builtin->asObject() != callee.asObject()) continue;
        if ((s.foldsConstants && allConstant(args)) || (module == "builtins" && sumOfInts(args))) return std::nullopt;
        Value& polyfills = polyfillModules_[s.polyfills];
        if (!polyfills.isObject()) polyfills = loadLibraryModule(s.polyfills, currentLocation());
        return *polyfills.as<ModuleObject>()->find(s.name);
    }
    return std::nullopt;
}

bool Interpreter::dynamoHandles(const FunctionObject& fn) const {
    if (!fn.globals || isScriptFile(fn.definedAt().file)) return false;
    auto name = fn.globals->vars.find("__name__");
    if (name == fn.globals->vars.end() || !name->second.isString()) return false;
    const std::string& module = name->second.asString();
    // torch.nn.modules.utils's _single, _pair, ...: Dynamo's handle_ntuple makes the tuple itself.
    if (module == "torch.nn.modules.utils") return fn.codeName == "parse";
    // A function PyTorch has as a builtin (F.conv_transpose2d), written here in Python, or one of
    // its Python functions Dynamo puts in the graph whole (F.dropout2d): its call is one op to
    // Dynamo. The library's torch._composite* modules are torch's own names.
    const std::string scope = module.starts_with("torch._composite") ? "torch" : module;
    return torchHasName(scope, fn.name) &&
           (!torchNameIsPythonFunction(scope, fn.name) || torchNameIsInGraphFunction(scope, fn.name));
}

}  // namespace fusescope
