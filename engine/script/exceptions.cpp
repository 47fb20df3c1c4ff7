// Exceptions as classes: the builtin hierarchy, raise, and try/except/else/finally.
// Errors the engine raises (an op's RuntimeError, a dict's KeyError) are ScriptErrors
// with a kind and a message; an except clause sees them as instances of the builtin class
// of that name.
#include <fmt/format.h>

#include "script/interpreter.h"

namespace fusescope {

namespace {

// Python's builtin exception classes a script can meet, each after its base.
constexpr std::pair<const char*, const char*> kExceptionClasses[] = {
    {"BaseException", nullptr},
    {"Exception", "BaseException"},
    {"KeyboardInterrupt", "BaseException"},
    {"SystemExit", "BaseException"},
    {"GeneratorExit", "BaseException"},
    {"StopIteration", "Exception"},
    {"StopAsyncIteration", "Exception"},
    {"EOFError", "Exception"},
    {"BufferError", "Exception"},
    {"ReferenceError", "Exception"},
    {"SystemError", "Exception"},
    {"ArithmeticError", "Exception"},
    {"ZeroDivisionError", "ArithmeticError"},
    {"OverflowError", "ArithmeticError"},
    {"FloatingPointError", "ArithmeticError"},
    {"LookupError", "Exception"},
    {"IndexError", "LookupError"},
    {"KeyError", "LookupError"},
    {"ValueError", "Exception"},
    {"UnicodeError", "ValueError"},
    {"UnicodeDecodeError", "UnicodeError"},
    {"UnicodeEncodeError", "UnicodeError"},
    {"UnicodeTranslateError", "UnicodeError"},
    {"TypeError", "Exception"},
    {"AttributeError", "Exception"},
    {"NameError", "Exception"},
    {"UnboundLocalError", "NameError"},
    {"RuntimeError", "Exception"},
    {"NotImplementedError", "RuntimeError"},
    {"RecursionError", "RuntimeError"},
    {"AssertionError", "Exception"},
    {"ImportError", "Exception"},
    {"ModuleNotFoundError", "ImportError"},
    {"MemoryError", "Exception"},
    {"SyntaxError", "Exception"},
    {"IndentationError", "SyntaxError"},
    {"TabError", "IndentationError"},
    {"OSError", "Exception"},
    {"FileNotFoundError", "OSError"},
    {"FileExistsError", "OSError"},
    {"PermissionError", "OSError"},
    {"IsADirectoryError", "OSError"},
    {"NotADirectoryError", "OSError"},
    {"TimeoutError", "OSError"},
    {"ConnectionError", "OSError"},
    {"Warning", "Exception"},
    {"UserWarning", "Warning"},
    {"DeprecationWarning", "Warning"},
    {"PendingDeprecationWarning", "Warning"},
    {"FutureWarning", "Warning"},
    {"RuntimeWarning", "Warning"},
    {"SyntaxWarning", "Warning"},
    {"ImportWarning", "Warning"},
    {"ResourceWarning", "Warning"},
    {"BytesWarning", "Warning"},
    {"UnicodeWarning", "Warning"},
};

const ValueList& argsOf(const ObjectPtr& self) {
    static const ValueList none;
    auto* instance = dynamic_cast<InstanceObject*>(self.get());
    Value* args = instance ? instance->dict->findString("args") : nullptr;
    const ValueList* items = args ? sequenceItems(*args) : nullptr;
    return items ? *items : none;
}

void addBaseExceptionMethods(DictObject& d) {
    d.set(Value("__cause__"), Value());  // until `raise ... from cause` sets the instance's
    d.set(Value("__init__"), makeMethod("BaseException.__init__", [](Interpreter&, CallArgs& a, const ObjectPtr& self) {
        static_cast<InstanceObject&>(*self).dict->set(Value("args"), makeTuple(a.args));
        return Value();
    }));
    d.set(Value("__str__"), makeMethod("BaseException.__str__", [](Interpreter& in, CallArgs&, const ObjectPtr& self) {
        const ValueList& args = argsOf(self);
        if (args.empty()) return Value(std::string());
        if (args.size() == 1) return Value(in.str(args[0]));
        return Value(in.repr(makeTuple(args)));
    }));
    d.set(Value("__repr__"), makeMethod("BaseException.__repr__", [](Interpreter& in, CallArgs&, const ObjectPtr& self) {
        std::string text;
        for (const Value& arg : argsOf(self)) text += (text.empty() ? "" : ", ") + in.repr(arg);
        return Value(self->typeName() + "(" + text + ")");
    }));
}

// An exception class as a traceback names it: by its name when defined in the script or
// builtins, else qualified by its __module__ (re.error, json.decoder.JSONDecodeError).
std::string tracebackName(const ClassObject& cls) {
    const Value* module = cls.dict->findString("__module__");
    if (!module || !module->isString() || module->asString() == "__main__" || module->asString() == "builtins") return cls.name;
    return module->asString() + "." + cls.name;
}

}  // namespace

ClassPtr builtinClass(Interpreter& interp, const std::string& name, const ClassPtr& base) {
    auto cls = std::make_shared<ClassObject>();
    cls->name = cls->qualname = name;
    cls->module = "builtins";
    cls->dict->set(Value("__module__"), Value(cls->module));
    cls->interpreter = &interp;
    cls->bases = {base};
    cls->mro = c3Linearization(*cls);
    return cls;
}

void addExceptionClasses(Interpreter& interp, const ClassPtr& object, std::map<std::string, Value, std::less<>>& b) {
    for (const auto& [name, baseName] : kExceptionClasses) {
        ClassPtr base = baseName ? std::static_pointer_cast<ClassObject>(b.at(baseName).asObject()) : object;
        ClassPtr cls = builtinClass(interp, name, base);
        if (!baseName) addBaseExceptionMethods(*cls->dict);
        b[name] = Value(ObjectPtr(cls));
    }
    b["IOError"] = b["EnvironmentError"] = b.at("OSError");  // CPython's aliases
    // StopIteration(value).value: what a generator returned; SystemExit(code).code: the exit
    // status (None without arguments, the args tuple with several).
    for (const auto& [name, field] : {std::pair{"StopIteration", "value"}, std::pair{"SystemExit", "code"}}) {
        auto& cls = static_cast<ClassObject&>(*b.at(name).asObject());
        cls.dict->set(Value("__init__"), makeMethod(std::string(name) + ".__init__", [field](Interpreter&, CallArgs& a, const ObjectPtr& self) {
            auto& dict = *static_cast<InstanceObject&>(*self).dict;
            dict.set(Value("args"), makeTuple(a.args));
            const bool several = std::string_view(field) == "code" && a.args.size() > 1;
            dict.set(Value(field), several ? makeTuple(a.args) : a.args.empty() ? Value() : a.args[0]);
            return Value();
        }));
    }
    // str(KeyError('a')) is "'a'": the key's repr.
    auto& keyError = static_cast<ClassObject&>(*b.at("KeyError").asObject());
    keyError.dict->set(Value("__str__"), makeMethod("KeyError.__str__", [](Interpreter& in, CallArgs&, const ObjectPtr& self) {
        const ValueList& args = argsOf(self);
        return Value(args.size() == 1 ? in.repr(args[0]) : args.empty() ? std::string() : in.repr(makeTuple(args)));
    }));
}

const Value& Interpreter::builtin(std::string_view name) const {
    auto it = builtins_.find(name);
    if (it == builtins_.end()) throw Error("internal error: no builtin '" + std::string(name) + "'");
    return it->second;
}

ClassPtr Interpreter::exceptionClass(const std::string& kind) {
    if (auto it = builtins_.find(kind); it != builtins_.end())
        if (auto* cls = it->second.as<ClassObject>(); cls && cls->module == "builtins")
            return std::static_pointer_cast<ClassObject>(it->second.asObject());
    // torch.compile's own errors: torch._dynamo.exc's classes, RuntimeErrors there.
    if (kind == "TorchDynamoException") return moduleExceptionClass("torch._dynamo.exc", kind, "RuntimeError");
    if (kind == "Unsupported" || kind == "TorchRuntimeError") return moduleExceptionClass("torch._dynamo.exc", kind, "TorchDynamoException");
    // "struct.error": the class the module defines, made here if the module has not been imported.
    if (auto dot = kind.rfind('.'); dot != std::string::npos) return moduleExceptionClass(kind.substr(0, dot), kind.substr(dot + 1));
    auto& extra = extraExceptionClasses_[kind];
    if (!extra) extra = builtinClass(*this, kind, exceptionClass("Exception"));
    return extra;
}

// torch._dynamo.exc: the classes of torch.compile's own errors (exceptionClass makes them).
void Interpreter::addDynamoExceptions() {
    auto exc = std::make_shared<ModuleObject>();
    exc->name = "torch._dynamo.exc";
    for (const char* name : {"TorchDynamoException", "Unsupported", "TorchRuntimeError"}) exc->attrs[name] = Value(ObjectPtr(exceptionClass(name)));
    rootModules_["torch"].as<ModuleObject>()->find("_dynamo")->as<ModuleObject>()->attrs["exc"] = Value(ObjectPtr(exc));
}

ClassPtr Interpreter::moduleExceptionClass(const std::string& module, const std::string& name, const std::string& base) {
    auto& cls = extraExceptionClasses_[module + "." + name];
    if (!cls) {
        cls = builtinClass(*this, name, exceptionClass(base));
        cls->module = module;
        cls->dict->set(Value("__module__"), Value(module));
    }
    return cls;
}

Value Interpreter::exceptionValue(const ScriptError& error) {
    if (auto* raised = dynamic_cast<const RaisedException*>(&error)) return raised->exception();
    Value instance = newInstance(exceptionClass(error.kind()));
    std::string message = error.what();
    instance.as<InstanceObject>()->dict->set(Value("args"), message.empty() ? makeTuple({}) : makeTuple({Value(message)}));
    return instance;
}

bool Interpreter::matchesException(const ScriptError& error, const std::string& kind) {
    Value exception = exceptionValue(error);  // held: its class pointer lives in it
    return (*instanceClass(exception))->isSubclassOf(*exceptionClass(kind));
}

void Interpreter::raise(const std::string& kind, ValueList args) {
    CallArgs a;
    a.args = std::move(args);
    Value instance = callClass(exceptionClass(kind), a);
    throw RaisedException(kind, str(instance), currentLocation(), instance);
}

// --------------------------------------------------------------------------- statements

void Interpreter::execRaise(const Raise& stmt) {
    if (!stmt.exc) {
        if (handling_.empty()) fail("RuntimeError", "No active exception to reraise");
        std::rethrow_exception(handling_.back());
    }
    const ClassObject& baseException = *exceptionClass("BaseException");
    auto instantiate = [&](const Value& v) -> Value {
        if (auto* cls = v.as<ClassObject>(); cls && cls->isSubclassOf(baseException)) {
            CallArgs none;
            return call(v, none);
        }
        const ClassPtr* cls = instanceClass(v);
        if (!cls || !(*cls)->isSubclassOf(baseException)) fail("TypeError", "exceptions must derive from BaseException");
        return v;
    };
    Value exception = instantiate(eval(*stmt.exc));
    if (stmt.cause) {
        Value cause = eval(*stmt.cause);
        if (!cause.isNone()) cause = instantiate(cause);
        exception.as<InstanceObject>()->dict->set(Value("__cause__"), cause);
    }
    const ClassPtr& cls = *instanceClass(exception);
    // Raised in the torch library (an op Fusescope writes in Python, raising what PyTorch's
    // C++ raises): reported at the script's line that called it.
    const SourceLocation where = isScriptFile(stmt.loc.file) ? stmt.loc : userLocation();
    throw RaisedException(tracebackName(*cls), str(exception), where, exception);
}

Interpreter::Flow Interpreter::execTry(const Try& stmt) {
    Flow flow = Flow::Normal;
    std::exception_ptr pending;
    std::optional<Value> caught;
    // The frame is inside the try block while its body and a handler run (Frame::tryDepth). It
    // is the top frame at both ends (a generator's frame moves between resumes: no index).
    struct InTry {
        std::vector<Frame>& frames;
        explicit InTry(std::vector<Frame>& stack) : frames(stack) { ++frames.back().tryDepth; }
        ~InTry() { --frames.back().tryDepth; }
    };
    try {
        InTry inTry(stack_);
        flow = exec(stmt.body);
    } catch (const TraceRestart&) {
        throw;  // the frame runs again from its start: no handler or finally here (trace_hooks.h)
    } catch (const ScriptError& e) {
        pending = std::current_exception();
        // Cancelling the run is not an exception the script may swallow.
        bool cancelled = e.kind() == "KeyboardInterrupt" && !dynamic_cast<const RaisedException*>(&e);
        if (!cancelled) caught = exceptionValue(e);
    } catch (...) {
        pending = std::current_exception();
    }
    try {
        if (caught) {
            for (const auto& handler : stmt.handlers) {
                stack_.back().where = handler.loc;
                if (handler.type) {
                    Value type = eval(*handler.type);
                    const ValueList* types = sequenceItems(type);
                    for (const Value& t : types ? *types : ValueList{type}) {
                        auto* cls = t.as<ClassObject>();
                        if (!cls || !cls->isSubclassOf(*exceptionClass("BaseException")))
                            fail("TypeError", "catching classes that do not inherit from BaseException is not allowed");
                    }
                    if (!isInstance(*caught, type)) continue;
                }
                std::exception_ptr handled = pending;
                pending = nullptr;
                if (!handler.name.empty()) store(handler.name, *caught);
                handling_.push_back(handled);
                struct Pop {
                    std::vector<std::exception_ptr>& stack;
                    ~Pop() { stack.pop_back(); }
                } pop{handling_};
                InTry inTry(stack_);
                flow = exec(handler.body);
                if (!handler.name.empty()) scopeFor(handler.name)->vars.erase(handler.name);
                break;
            }
        } else if (!pending && flow == Flow::Normal) {
            flow = exec(stmt.orelse);
        }
    } catch (const TraceRestart&) {
        throw;
    } catch (...) {
        pending = std::current_exception();
    }
    if (!stmt.finalbody.empty()) {
        Value returning = returnValue_;
        Flow finalFlow = exec(stmt.finalbody);
        if (finalFlow != Flow::Normal) return finalFlow;  // return/break in finally drops the exception
        returnValue_ = returning;
    }
    if (pending) std::rethrow_exception(pending);
    return flow;
}

}  // namespace fusescope
