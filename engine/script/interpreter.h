#pragma once
// A tree-walking interpreter for the script subset (docs/scripts.md).
// Outside compiled functions tensor ops run eagerly through the op registry; inside them
// the interpreter hands ops to TraceHooks (the capture layer), which records graphs.

#include <functional>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ops/op_call.h"
#include "observe/event.h"
#include "script/ast.h"
#include "script/set_object.h"
#include "script/torch_lines.h"
#include "script/object_model.h"
#include "script/trace_hooks.h"
#include "script/types/type_slots.h"
#include "script/value.h"

namespace fusescope {

// Variables of one function call (or of the module).
struct Scope {
    CreationSerial serial;
    std::unordered_map<std::string, Value> vars;
    ScopePtr parent;  // lexically enclosing function scope; null at module level
    bool isModule = false;
    bool isComprehension = false;  // a comprehension's or generator expression's: `:=` binds past it
    // A script module's globals (not the script's, not the library's): how a traced function
    // names them, G['__import_model'] (their reads are guarded as the script's are).
    SourcePtr moduleSource;
    std::set<std::string> globalNames;    // declared `global`
    std::set<std::string> nonlocalNames;  // declared `nonlocal`
    const std::set<std::string>* localNames = nullptr;  // names the function assigns
    // A class body: names are stored in definition order, and functions defined in it close
    // over its enclosing scope (not over the body) and get its __class__ cell.
    std::shared_ptr<ClassCell> classCell;
    std::vector<std::string> definitionOrder;
};

// One active function call, innermost last on the interpreter's stack.
struct Frame {
    std::string function;  // the name as Python's co_name: "forward", "<module>" at top level
    SourceLocation where;  // the statement running now
    int line = 0;          // the line of the instruction CPython would run now (Dynamo's lineno):
                           // a multi-line call's arguments are on theirs, the call on its first
    bool traced = false;   // runs under TraceHooks
    int inlineDepth = 0;   // 0 for the compiled function itself, 1 for a call it makes, ...
    const Expr* pending = nullptr;  // the call, subscript or branch test being evaluated
    // The compiled frame's values CPython would hold on its stack now: a binary operation's
    // left operand while the right one runs, a call's callee and arguments so far, ... (the
    // ___stack0 ... a graph break's resume function gets). Kept only for that frame.
    std::vector<Value*> operands;
    struct Comprehension {
        const char* function;  // "<listcomp>"
        int line;              // where it starts: the line its enclosing code calls it at
    };
    std::vector<Comprehension> comprehensions;  // running in this frame, outermost first
    // The compiled frame's loops running now, outermost first (a graph break in one is not
    // resumed from: Dynamo skips the frame): a for's iterable and how many items it gave.
    struct Loop {
        const Stmt* stmt;
        const Value* iterable;  // null for a while
        int64_t taken = 0;
        Value iterator;  // the one an instance's __iter__ gave (None: the loop iterates `iterable` itself)
        const FunctionObject* iterMethod = nullptr;  // ... that __iter__
    };
    std::vector<Loop> loops;
    // try blocks and exception handlers running now in this frame (a graph break in one is not
    // resumed from either: Dynamo restores only `with` blocks, and skips the frame).
    int tryDepth = 0;
    // The `with` statements of torch's own context managers (record_function, no_grad) whose
    // blocks run now: a resume function inside them enters each again (Dynamo names each one's
    // manager), and a break's log says where each came from.
    std::vector<SourceLocation> torchContexts;
    // A call Dynamo makes itself rather than tracing its code (a function PyTorch writes in
    // C++ that Fusescope's library writes in Python; _single and its kin): this frame and those
    // it calls are not in the traced stack, and the library globals they read are not guarded.
    bool dynamoHandled = false;
    const FunctionObject* callee = nullptr;  // the script function running (null at module level)
    // An inlined function the trace reached by a source: its free variables are read as Dynamo
    // reads them, SOURCE.__closure__[i].cell_contents (guarded as any input).
    SourcePtr closureSource;
    int moduleCalls = 0;  // nn.Module calls PyTorch shows above this frame that Fusescope has no frames of
    std::string qualname;  // Outer.forward: what a def or class made in this frame is named under
    Value self;            // the first argument when it is an instance (a method's self)
};

// A generator expression's frame: of no function of its own (its lines are its function's).
inline bool isGeneratorExpressionFrame(const Frame& f) { return !f.callee && f.qualname.ends_with(".<genexpr>"); }

// torch.nn's frames of one module call (Module._wrapped_call_impl, then _call_impl) as PyTorch
// 2.15's tracebacks show them, each marked under its call.
const std::vector<StackFrame>& moduleCallFrames();

// Options of torch.compile / torch._dynamo.optimize.
struct CompileOptions {
    std::string backend = "inductor";
    // The backend the script named where `--backend` compiles with another: what the cache is
    // keyed by (a second callable still recompiles, BACKEND_MATCH, as the script as written does).
    std::string namedBackend;
    const std::string& cacheBackend() const { return namedBackend.empty() ? backend : namedBackend; }
    std::string dynamic = "auto";  // "auto" (None), "true", "false"
    Value guardFailFn;             // None or a callable taking the failure
    bool fullgraph = false;        // a graph break is an error
};

// The function torch.compile returned.
struct CompiledFunctionObject : Object {
    Value function;  // the FunctionObject
    CompileOptions options;
    // torch.compile(obj.method), or of a module whose forward is its own class's: the object
    // passed as the function's first argument (L['self']).
    Value boundSelf;
    // torch.compile(module): the module the OptimizedModule stands for (its _orig_mod).
    Value module;
    bool isModule = false;
    std::string typeName() const override { return isModule ? "OptimizedModule" : "function"; }
    const TypeSlots* slots() const override;
};

// The session side of compiled calls and script output; implemented outside script/.
class ScriptHost {
public:
    virtual ~ScriptHost() = default;
    virtual void writeStdout(const std::string& text) = 0;
    virtual Value callCompiled(Interpreter& interp, CompiledFunctionObject& fn, CallArgs& args) = 0;
    // torch._dynamo.explain(fn)(*args)
    virtual Value explain(Interpreter& interp, const Value& fn, CallArgs& args) = 0;
    virtual void resetDynamo() = 0;                           // torch._dynamo.reset()
    // torch.compile(...) made a compiled function: PyTorch logs each graph break in full again
    // from here (its duplicate-break check starts afresh).
    virtual void compiledFunctionMade() {}
    virtual void setLogs(const CallArgs& args) = 0;           // torch._logging.set_logs(...)
    // torch.compiler.set_stance(stance): the stance compiled calls take from now on; returns
    // the previous one (capture/compile_manager.h).
    virtual std::string setCompileStance(const std::string& stance) = 0;
    // Polled before every statement: true stops the script with KeyboardInterrupt.
    virtual bool cancelRequested() const { return false; }
    // A module of the script's own was imported: its file as locations name it, its path
    // under the script's directory, its text.
    virtual void moduleImported(const std::string& file, const std::string& path, const std::string& source) {
        (void)file, (void)path, (void)source;
    }
};

// The config modules scripts set and compiles read: torch._dynamo.config and
// torch._inductor.config (owned by the torch module).
struct ConfigModules {
    ModuleObject* dynamo = nullptr;
    ModuleObject* inductor = nullptr;
};

struct GeneratorObject;  // script/generator.h

class Interpreter {
public:
    Interpreter(const Module& module, ScriptHost& host);
    ~Interpreter();

    // Runs the module's statements. Throws Error / ScriptError on a script error.
    void run();
    // A builtin name of the host's own (before run()): a value of a type it defines, say.
    void defineBuiltin(const std::string& name, Value value) { builtins_[name] = std::move(value); }
    // Bounds the run (for fuzzing scripts, fuzz/harnesses/script_interpreter.cpp): past
    // `steps` statements and comprehension items the script fails with RuntimeError. 0: none.
    void setStepBudget(int64_t steps) { stepBudget_ = steps; }
    // Module files sent with the script by path (SessionOptions::sentFiles), found before the disk.
    void setSentFiles(const std::map<std::string, std::string>* files) { sentFiles_ = files; }

    // Calls any callable value (its type's call slot).
    Value call(const Value& callee, CallArgs& args);
    // The call slots of functions, compiled functions, classes and instances (__call__).
    Value callScriptFunction(const FunctionObject& fn, CallArgs& args);
    Value callCompiledFunction(CompiledFunctionObject& compiled, CallArgs& args);
    // torch._dynamo.external_utils.wrap_inline(module): the frame torch.compile compiles around
    // a module whose forward is torch.nn's own.
    Value wrapInline(const Value& module);
    // What importing torch._dynamo (torch.compile does) changes in torch: once, as PyTorch's
    // import of torch.distributed.tensor appends DTensor to _foreach_supported_types.
    void importDynamo();
    Value callClass(const ClassPtr& cls, CallArgs& args);
    Value callInstance(const Value& instance, CallArgs& args);
    Value callTracedModule(const Value& instance, const ClassPtr& cls, const Value& method, CallArgs& args);
    // @torch.no_grad() and its kin on a function: a def that runs each call in a fresh manager.
    Value decorateWithContext(const ContextManagerObject& manager, const Value& function);
    // Runs a script function's body. With traced=true it runs under the current tracer at
    // inline depth `depth`, and the arguments' sources are the function's locals.
    // `moduleCalls`: how many nn.Module calls PyTorch runs the frame under whose frames
    // Fusescope's call has none (a compiled module's forward: the OptimizedModule's, the
    // module's own), each shown in a graph break's traceback as torch.nn's two frames.
    Value callFunction(const FunctionObject& fn, CallArgs& args, bool traced = false, int depth = 0, int moduleCalls = 0);
    // The names a function binds (its parameters, and the names its body assigns): its own locals.
    const std::set<std::string>& localNamesOf(const FunctionObject& fn) const;
    // A def's free variables, sorted as CPython's co_freevars, with their values now: the names
    // it reads that an enclosing function binds. A compiled frame's are its locals too
    // (Python 3.11's frame holds them; Dynamo guards them as L['name']).
    std::vector<std::pair<std::string, Value>> freeVariables(const FunctionObject& fn) const;
    // Their names alone (co_freevars), and fn.__closure__: a tuple of cells in that order, or None.
    const std::vector<std::string>& freeVariableNames(const FunctionObject& fn) const;
    const Value& closureOf(const FunctionObject& fn) const;
    // Where the running inlined function, reached by the trace through a source, reads its free
    // variable `name`: SOURCE.__closure__[i].cell_contents; null elsewhere.
    SourcePtr closureCellSource(const std::string& name) const;
    // The function's parameters bound to a call's arguments, as Python binds them.
    std::vector<std::pair<std::string, Value>> bindArguments(const FunctionObject& fn, const CallArgs& args) const;
    // A variable of the script's globals (or, named __import_NAME, a module of its own), or null.
    // Library module `dotted` (torch.nn.modules.module), imported, with the source Dynamo
    // names it by (G['__import_torch_dot_nn_dot_modules_dot_module']).
    Value torchModuleSourced(const std::string& dotted);
    const Value* global(const std::string& name) const;
    // A global Dynamo installs in the frame's globals by an object's id (its install_global_by_id:
    // the torch module as G['_<id>_c0']); guards read it as a global.
    void installDynamoGlobal(const std::string& name, const Value& value) { dynamoGlobals_[name] = value; }
    const Value* dynamoGlobal(const std::string& name) const {
        auto it = dynamoGlobals_.find(name);
        return it == dynamoGlobals_.end() ? nullptr : &it->second;
    }
    const Value* findBuiltin(const std::string& name) const;  // len, range, ...; null when there is none
    // Whether `file` is the script's or a module of its own it imported (not the library's).
    bool isScriptFile(const std::string& file) const;
    // Whether Dynamo traces the line running now: the script's, or a line of Fusescope's torch
    // that PyTorch's Python has too (its frames are traced as PyTorch's are).
    bool tracesRunningLine() const { return isScriptFile(currentLocation().file) || torchModuleOfFrame().has_value(); }

    // Tracing: the hooks of the compiled function being traced (null when running eagerly).
    TraceHooks* tracer() const { return tracer_; }
    // The slots of a value about to be read or changed through them: every slot call goes
    // through here, the one place the tracer hears of each object a compiled call uses
    // (its direct calls compare those again; capture/direct_call.h).
    const TypeSlots* touchedSlots(const Value& value) {
        if (tracer_ && value.isObject()) tracer_->onObjectTouch(value);
        realize(value);
        return slotsOf(value);
    }
    void setTracer(TraceHooks* hooks) { tracer_ = hooks; }
    // `instance`'s __iter__ (`method`) gave `iterator`: where the compiled frame's innermost loop
    // iterates `instance`, the loop's (a graph break there names it).
    void noteLoopIterator(const Value& instance, const Value& iterator, const FunctionObject* method);
    // Runs a script function called while no tracer is active in its own compiled frame, as
    // Dynamo's frame callback does for frames a compiled call runs eagerly; nullopt: run it
    // plainly. Unset (null) outside such calls.
    using FrameInterceptor = std::function<std::optional<Value>(const FunctionObject&, CallArgs&)>;
    const FrameInterceptor* frameInterceptor() const { return frameInterceptor_; }
    void setFrameInterceptor(const FrameInterceptor* interceptor) { frameInterceptor_ = interceptor; }
    // The rest of the call `at` of the frame at index `frame` runs untraced, its script functions
    // through `eager`, until it returns there (or raises through it): the tracer and interceptor
    // are then what they are now.
    void runUntracedUntilReturn(const Expr& at, std::size_t frame, const FrameInterceptor* eager);
    const std::vector<Frame>& stack() const { return stack_; }
    // The compiled frame running now: the innermost traced frame of depth 0 (a compiled call
    // that runs a call eagerly has that call's functions compiled as frames of their own); null
    // outside a compiled call.
    const Frame* compiledFrame() const;
    const ScopePtr& currentScope() const { return current_; }  // the running frame's locals
    // `value` read through `source` (left unsourced where guards never depend on it).
    Value withSource(Value value, SourcePtr source) const;
    // A sourced value as the compiled code reads it (a local, a global): its guards' input.
    Value loaded(Value value);
    // An attribute read evalCall hands an inlined function as an argument bound to a named
    // parameter: Dynamo's lazy value, which instanceAttribute leaves unguarded when it is a
    // constant (the function's read of its parameter guards it).
    const Expr* lazyArgument_ = nullptr;  // the argument's Attribute expression, until it is evaluated
    std::pair<const Object*, std::string> lazyRead_;  // the instance and name it reads, while it does
    // The user stack of the traced code: frames from the compiled function inwards.
    std::vector<StackFrame> tracedStack() const;
    // The traced code's stack as Dynamo's is: tracedStack() and the frames of Fusescope's
    // torch.nn whose lines PyTorch's own torch.nn has, at PyTorch's place (linear.py:134).
    std::vector<StackFrame> dynamoStack() const;
    // Whether Dynamo makes a traced call of `fn` itself (Frame::dynamoHandled, script/polyfills.cpp).
    bool dynamoHandles(const FunctionObject& fn) const;
    // A function of torch's written in Python that Dynamo traces where the trace calls it.
    bool isTracedTorchCode(const FunctionObject& fn) const;
    // ... and compiles as a frame of its own where code running eagerly calls it (optimizer.py's
    // wrapper; not torch.nn's, which Dynamo only inlines).
    bool compilesAsTorchFrame(const FunctionObject& fn) const;
    // Whether the code running now is code Dynamo traces: the script's, or torch's Python it
    // inlines (not the library's stand-ins for torch's C++ functions).
    bool runningTracedCode() const;
    // The globals of the code running now (globals()): a library module's, or the script's.
    const ScopePtr& currentGlobals() const { return globals_; }
    // Whether the frame running now is in such a call.
    bool inDynamoHandledCall() const { return !stack_.empty() && stack_.back().dynamoHandled; }
    // The script's frames now, outermost first, each at the line it is on (a caller's: its call).
    std::vector<StackFrame> userStack() const;
    // The script's frames, outermost first, each with the marker under the expression it is
    // evaluating (a graph break's user code traceback).
    std::vector<StackFrame> markedStack(bool tracedOnly) const { return scriptStack(tracedOnly, true); }

    const Module& module() const { return module_; }
    // The line `where` points at, in the script or in a library module it imported.
    std::string sourceLine(const SourceLocation& where) const;
    // Where PyTorch has line `at` of library frame `f` (torch_lines.h); a code that repeats in the
    // function is matched by its occurrence.
    std::optional<TorchPlace> torchPlaceAt(const Frame& f, const SourceLocation& at) const;
    std::string strippedSourceLine(const SourceLocation& where) const;  // without its indent
    const Module& moduleOf(const SourceLocation& where) const;
    ScriptHost& host() { return host_; }
    ModuleObject& dynamoConfig() { return *configs_.dynamo; }
    ModuleObject& inductorConfig() { return *configs_.inductor; }
    // The location of the statement or call running now (for messages).
    SourceLocation currentLocation() const;
    // The innermost location in the script itself: inside torch.nn's library code, the
    // script line that called into it (graph nodes and guards name that line, as PyTorch's do).
    SourceLocation userLocation() const;
    // The current location as PyTorch reports it: in library code written as PyTorch's, the
    // line of PyTorch's file (torch/nn/modules/transformer.py:1249); elsewhere currentLocation().
    SourceLocation torchLocation() const;

    // Helpers shared by the builtins and the torch namespace.
    Value callOp(const std::string& opName, CallStyle style, const ValueList& args,
                 const std::vector<std::pair<std::string, Value>>& kwargs, const CallSite& site,
                 const std::string& symbol = "");
    bool truthy(const Value& value);  // may break the graph on a lazy tensor
    // t's data is read into Python now (item(), a branch on it, printing): while a compiled
    // function is traced the graph breaks there, for the reason `why()` gives (made only
    // then), whatever t is: a graph value gets its data, and a value read from an input or a
    // global is read afresh on every call rather than baked into the graph as a constant.
    template <class MakeBreak>
    Tensor realTensor(const Tensor& t, MakeBreak&& why) {
        if (tracer_) tracer_->graphBreak(why());
        return t;
    }
    ValueList iterate(const Value& iterable);
    Value indexTensor(const Value& tensor, const Value& index);  // tensor[index]: views, or advanced indexing
    // A function of torch/_composite.py (advanced indexing, ...) called with `args`.
    Value callComposite(const std::string& name, ValueList args);
    // A tensor method written in Python (torch/_composite.py's _tensor_methods: x.norm(), ...)
    // bound to `self`, or nullopt when there is none of that name.
    std::optional<Value> libraryTensorMethod(const Value& self, std::string_view name);
    // Calls visit with each item until it returns false: a range item by item (it may be
    // huge), a container raising as CPython's if it changes size meanwhile.
    void forEachItem(const Value& iterable, const ItemVisitor& visit);
    Value getAttribute(const Value& object, const std::string& name, const SourceLocation& where);
    // A dict's item read while tracing: sourced from the dict (L['self']._modules['fc']) and guarded.
    Value dictItem(const Value& dict, const std::string& key, const Value& item);
    // By a string or int key (others unsourced), or by its position where Dynamo names it so.
    Value dictItem(const Value& dict, const Value& key, const Value& item, size_t position);
    void setAttribute(const Value& object, const std::string& name, const Value& value);
    void deleteAttribute(const Value& object, const std::string& name);
    // object.__setattr__ / object.__delattr__: the instance's dict, through properties.
    void genericSetAttribute(const Value& object, const std::string& name, const Value& value);
    void genericDeleteAttribute(const Value& object, const std::string& name);
    Value makeSuper(const CallArgs& args);  // super() / super(cls, obj) in the running function
    bool hasAttribute(const Value& object, const std::string& name);  // getattr without AttributeError

    // The object model (classes.cpp).
    // A class made from a name, bases and a namespace (class statements, type(), namedtuple).
    ClassPtr makeClass(const std::string& name, const std::string& qualname, const ValueList& bases,
                       std::shared_ptr<DictObject> dict);
    // type.__new__(metaclass, name, bases, namespace, **kwargs): a class whose type is the
    // metaclass (a script class deriving from type), its __init_subclass__ given the kwargs.
    Value newClassOf(const ClassPtr& metaclass, CallArgs& args);
    // The class `type` as a base of script metaclasses (class M(type)): its __new__, __init__
    // and __call__, which a metaclass's own reach through super().
    ClassPtr typeClass() const { return typeClass_; }
    // Calls the special method `name` of an instance's class (obj.__len__() looked up on the
    // type, as Python does), or of a class's metaclass (not type's own); nullopt when that class
    // does not define it.
    std::optional<Value> callSpecial(const Value& object, std::string_view name, ValueList args);
    // format(value, spec): its __format__, else the spec applied (str() for an empty one; a 0-d
    // tensor's number, as Tensor.__format__).
    std::string formatValue(const Value& value, const std::string& spec);
    // A list, dict or set that may be stored into after it was made (its method was looked up,
    // an item assigned, `+=`). Only such a store can close a reference cycle of plain containers
    // (a container made holds only what existed before it), so the destructor empties these.
    void noteStoredInto(const ObjectPtr& container);
    // Attributes of the object model's objects: their types' getattr, setattr and delattr slots.
    Value instanceAttribute(const Value& instance, const std::string& name);
    void instanceSetAttribute(const Value& instance, const std::string& name, const Value& value);
    void instanceDeleteAttribute(const Value& instance, const std::string& name);
    // left op right through an instance's __op__, or the other's __rop__ (the instance type's
    // binary slot); nullopt when neither is defined or both give NotImplemented.
    std::optional<Value> binaryDunder(BinaryOperator op, const Value& left, const Value& right);
    // ... and the rich comparisons (identity for == and != without them): the instance
    // type's compare slot.
    std::optional<Value> compareDunder(CompareOperator op, const Value& left, const Value& right);
    // self op= other through __iop__ (nullopt without it, or NotImplemented), -self through
    // __neg__, ...: the instance type's inplace and unary slots.
    std::optional<Value> inplaceDunder(BinaryOperator op, const Value& self, const Value& other);
    std::optional<Value> unaryDunder(UnaryOperator op, const Value& self);
    Value classAttribute(const Value& cls, const std::string& name);
    Value superAttribute(const SuperObject& super, const std::string& name);
    std::string repr(const Value& value);  // repr(), running __repr__ where defined
    std::string str(const Value& value);   // str(), running __str__ / __repr__ where defined
    ClassPtr objectClass() const { return objectClass_; }
    // type(value): a class for instances, a builtin type object otherwise.
    Value typeOf(const Value& value);
    bool isInstance(const Value& value, const Value& type);  // one type or a tuple of types
    bool isSubclass(const Value& cls, const Value& type);

    // Exceptions (exceptions.cpp).
    // The exception class a ScriptError's kind names (ValueError, ...); made on first use for a
    // kind no builtin class has.
    ClassPtr exceptionClass(const std::string& kind);
    // The exception class a native module defines (struct.error, binascii.Error): raised by
    // fail("module.name", ...), caught as the class the module exports.
    ClassPtr moduleExceptionClass(const std::string& module, const std::string& name, const std::string& base = "Exception");
    // The exception instance an error carries (made from its kind and message when raised by
    // the engine rather than by a raise statement).
    Value exceptionValue(const ScriptError& error);
    // Whether an error is an instance of the exception class `kind` or of a subclass.
    bool matchesException(const ScriptError& error, const std::string& kind);
    void initSubclass(const ClassPtr& cls, CallArgs& args);
    ClassPtr metaclassFor(const std::optional<Value>& explicitMetaclass, const ValueList& bases);
    // attr as read through self: a function bound, a classmethod bound to cls, a property's value.
    Value bindDescriptor(const Value& attr, const Value& self, const ClassPtr& cls);
    Value newInstance(const ClassPtr& cls);  // an instance with an empty __dict__, not initialised
    // Raises an instance of the builtin exception class `kind` made from args (KeyError(key)).
    [[noreturn]] void raise(const std::string& kind, ValueList args);
    const Value& builtin(std::string_view name) const;  // a builtin by name (it must exist)
    int64_t length(const Value& value);
    [[noreturn]] void fail(const std::string& kind, const std::string& message) const;
    CallSite siteOf(const Expr& expr) const;
    // Python operators on values (tensors included), as the script would spell them.
    Value evalBinary(BinaryOperator op, const Value& left, const Value& right, const CallSite& site);
    // target op= value: in place where the type does it (CPython's nb_inplace_*), else
    // target op value.
    Value evalInPlace(BinaryOperator op, const Value& target, const Value& value, const CallSite& site);
    // -x, +x, ~x, not x.
    Value evalUnary(UnaryOperator op, const Value& operand, const CallSite& site);
    // object[index], object[index] = value, del object[index].
    Value evalSubscript(const Value& object, const Value& index);
    void assignSubscript(const Value& object, const Value& index, const Value& value);
    void deleteSubscript(const Value& object, const Value& index);
    Value evalCompare(CompareOperator op, const Value& left, const Value& right, const CallSite& site);
    // The call or operator being evaluated now (ops record it as their provenance).
    const CallSite& currentSite() const { return site_; }

    // Generators (generators.cpp).
    // A generator that runs `body` in `frame`, `scope` and `globals` when first resumed;
    // `function` is the generator function (null for a generator expression).
    Value makeGenerator(Frame frame, ScopePtr scope, ScopePtr globals, std::function<Value()> body, ObjectPtr function);
    // Runs the generator to its next yield: the value yielded, or nullopt once it has returned
    // (what it returned is its `returned`). `sent` is the yield's value; `thrown`, when set, is
    // raised at the yield instead.
    std::optional<Value> resumeGenerator(GeneratorObject& generator, Value sent, std::exception_ptr thrown = nullptr);
    void closeGenerator(GeneratorObject& generator);  // generator.close(): GeneratorExit at its yield

private:
    // callOp's dispatch, once autocast has cast the arguments.
    Value runOp(const OpDef& op, const IValueList& args, const Kwargs& kwargs, CallStyle style, const CallSite& site,
                const std::string& symbol);
    std::vector<StackFrame> scriptStack(bool tracedOnly, bool withMarkers = false, bool torchFrames = false) const;
    Value yieldValue(Value value);            // `yield value` in the running generator
    Value yieldFrom(const Value& iterable);   // `yield from iterable`
    void runGeneratorBody(GeneratorObject& generator);  // on the generator's fiber
    void enterGenerator(GeneratorObject& generator);    // its frame back on the stack
    void leaveGenerator(GeneratorObject& generator);    // ... and off it, at a yield
    void finishGenerator(GeneratorObject& generator);   // it returned or raised: let go of its frame
    void closeGenerators();  // at the end of the run: every generator still suspended
    enum class Flow { Normal, Break, Continue, Return };

    Flow exec(const StmtList& body);
    Flow exec(const Stmt& stmt);
    Flow execFor(const For& stmt);
    Flow execWith(const With& stmt);
    // Exits one context manager; true when its __exit__ swallows the pending exception.
    bool exitContext(const Value& manager, const std::exception_ptr& pending);
    Flow execClassDef(const ClassDef& stmt);
    Flow execTry(const Try& stmt);
    [[noreturn]] void execRaise(const Raise& stmt);
    void execDelete(const Expr& target);
    Value runBody(const FunctionDef& def);  // a def's statements in the frame on top: what it returns
    // left.name(right), else right.reflected(left); nullopt when both are missing or NotImplemented.
    std::optional<Value> reflectedDunder(const Value& left, const Value& right, const char* name, const char* reflected);
    Value applyDecorators(Value target, const std::vector<ExprPtr>& decorators);
    // imports.cpp: the import statement, sys.modules, and the script's own modules.
    void execImport(const Stmt& stmt);
    // The module `dotted` names, imported (with its parents) if it is not yet.
    Value importModule(const std::string& dotted, const SourceLocation& where);
    std::string absoluteImportName(const ImportFrom& s) const;  // `from ..a import b`: the package.a it means
    // from m import *: m's __all__, else its names that do not start with '_'.
    void importStar(const ModuleObject& module, const std::string& from, const SourceLocation& where);
    struct ScriptModuleFile {
        std::string file;  // mod.py or pkg/__init__.py under the script's directory; "" for a namespace package
        std::string dir;   // a package's folder (its __path__); "" for a module
    };
    // The file of a module of the script's own, found as Python's path finder finds it in
    // the folders of sys.path (searchPath) or in its parent package's directory.
    std::optional<ScriptModuleFile> findScriptModule(const std::string& dotted) const;
    // sys.path's folders as the script left them once it imported sys (sys.path.insert(0, ...)
    // reaches later imports), else sys.path[0], the script's directory.
    std::vector<std::string> searchPath() const;
    Value loadScriptModule(const std::string& dotted, const ScriptModuleFile& found, const SourceLocation& where);
    const Value* importedModule(const std::string& globalName) const;  // by its __import_NAME
    void addDynamoExceptions();
    // The module a traced global read is named through, with that source (Dynamo's
    // G['__import_scaling'].SCALE): a script module's own, or for a line of Fusescope's
    // torch.nn that PyTorch's torch.nn has too, the PyTorch module whose file has it
    // (G['__import_torch_dot_nn_dot_modules_dot_linear'].F). None for the script's globals and
    // for a script module's where the compiled function is that module's (its frame's G['x']).
    std::optional<Value> globalsModule() const;
    // The traced code found method `name` on the class of `instance` (reached by `source`): the
    // trace holds while no instance attribute shadows it (Dynamo's DICT_CONTAINS on __dict__).
    void guardNotShadowed(const InstanceObject& instance, const SourcePtr& source, std::string_view name);
    std::optional<Value> torchModuleOfFrame() const;
    const std::string& torchModuleAt(const Frame& frame) const;
    bool readsCompiledTorchFrameGlobals() const;
    void runModuleBody(const Module& module, const ScopePtr& globals);  // eagerly, in its own globals
    // Runs a module of the script library (script_library.h); the module object it made.
    Value loadLibraryModule(const std::string& name, const SourceLocation& where);
    // On the first import of torch, the script library's parts of torch join the engine's:
    // functions of torch/_composite.py and torch/nn/functional.py, classes of torch/nn.py.
    void loadTorchLibrary(const SourceLocation& where);
    void nameClassesAsPyTorch();
    // The module Fusescope already has at a dotted name ("torch.nn"), imported or not; null when none.
    const ModuleObject* loadedModule(const std::string& dotted) const;
    // An op's results as torch.return_types.NAME when its schema names them (max.dim, topk).
    Value withNamedResults(const OpDef& op, Value results, const SourceLocation& where);
    void assign(const Expr& target, const Value& value);
    void augAssign(const AugAssign& stmt);
    Value makeFunction(const FunctionDef& def);
    ScopePtr closureScope();  // the scope a function defined now closes over (null at module level)
    // An error out of the script library reaching `here`, a line of the user's script, is
    // reported there (Error::reportAt): the library's files are not the user's to open.
    void reportAtUserLine(Error& e, const SourceLocation& here) const;
    std::string qualifiedName(const std::string& name) const;  // Outer.name for a def or class made now

    Value eval(const Expr& expr);
    // An if's or while's test: CPython tests its `and`/`or` operands (and `not`'s) with jumps at
    // the line where the operator starts, and the test itself at the test's first line; Dynamo's
    // guards name those lines (`if not (a\n or b):` guards b at the `if` line).
    // `pending`: the test is the expression a graph break at its truth marks (an if's).
    bool testTruth(const Expr& test, bool pending = false);
    Value evalCall(const Call& call);
    // While it lives, the values given to hold() are operands on the compiled frame's stack
    // (Frame::operands); it holds nothing in any other frame.
    class OperandScope {
    public:
        explicit OperandScope(Interpreter& in);
        ~OperandScope();
        OperandScope(const OperandScope&) = delete;
        OperandScope& operator=(const OperandScope&) = delete;
        void hold(Value& value);

    private:
        Interpreter& in_;
        std::size_t frame_ = 0, size_ = 0;
        bool active_ = false;
    };
    // While it lives, a loop of the compiled frame is in Frame::loops (nothing in any other frame).
    class LoopScope {
    public:
        LoopScope(Interpreter& in, const Stmt& stmt, const Value* iterable);
        ~LoopScope();
        LoopScope(const LoopScope&) = delete;
        LoopScope& operator=(const LoopScope&) = delete;
        void next();  // the loop took its next item

    private:
        static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
        Interpreter& in_;
        std::size_t frame_ = kNone;
    };
    Value evalUnary(const UnaryOp& expr);
    // Before each statement and comprehension item: the cancel and the step budget.
    void step(const SourceLocation& where);
    // {a, b, *c}: as CPython builds it (set_operations.h: the order it iterates in).
    Value evalSetDisplay(const fusescope::Set& display);
    // A for loop's or comprehension's iterable; a constant set display there is iterated as
    // CPython's optimiser folds it (set_operations.h: constantSetIteration).
    Value evalIterable(const Expr& iterable);
    Value evalComprehension(const Expr& comprehension, const Expr& elt, const std::vector<Comprehension>& generators, const Expr* dictValue,
                            bool isDict);
    ScopePtr comprehensionScope() const;  // a comprehension's own scope, made in the current one
    // Runs a comprehension's for and if clauses in the current scope, `produce` at each item;
    // `first` is the first clause's iterable (evaluated in the enclosing scope).
    void comprehensionLoop(const std::vector<Comprehension>& generators, const Value& first, const std::function<void()>& produce);
    Value evalJoinedStr(const JoinedStr& expr);
    Value lookup(const std::string& name, const SourceLocation& where);
    bool isCompiledFrameClosure(const ScopePtr& scope) const;
    void guardDefaults(const Value& callee, CallArgs& args);
    // The polyfill Dynamo runs for a builtin `callee` called in traced code (script/polyfills.cpp).
    std::optional<Value> dynamoPolyfill(const Value& callee, const CallArgs& args);
    std::map<std::string, Value> polyfillModules_;
    void consume(const Value& callee, const Value& argument);
    void readFloatsAsNumbers(const Value& callee, CallArgs& args);
    void store(const std::string& name, Value value);
    ScopePtr scopeFor(const std::string& name);
    // The code consumes `value` (TraceHooks::onRealize).
    void realize(const Value& value) const {
        if (tracer_ && value.source) tracer_->onRealize(value);
    }
    void realizeClosedOverItems(const FunctionObject& fn);

    const Module& module_;
    ScriptHost& host_;
    ScopePtr globals_;      // the globals of the code running now (a library module's, or the script's)
    ScopePtr mainGlobals_;  // the script's globals: G['x'] in guards
    std::vector<const Module*> libraryModules_;  // parsed once per process (parsedLibraryModule)
    std::vector<std::pair<std::string, ScopePtr>> libraryGlobals_;
    bool torchLibraryLoaded_ = false;
    Value returnTypes_;  // library torch/return_types.py, loaded by the first op with named results
    Value composites_;  // the torch._composite library module, set when the torch library loads
    Value contextDecorator_;  // torch/_decorators.py's, set when the torch library loads
    Value wrapInline_;        // torch/_dynamo/external_utils.py's, likewise
    Value optimizerModule_;   // torch/optim.py, torch.optim.optimizer; likewise
    bool dynamoImported_ = false;
    ScopePtr current_;
    std::vector<Frame> stack_;
    int64_t stepBudget_ = 0, steps_ = 0;
    Value returnValue_;
    TraceHooks* tracer_ = nullptr;
    const FrameInterceptor* frameInterceptor_ = nullptr;
    struct UntracedCall {
        const Expr* at;
        std::size_t frame;
        TraceHooks* tracer;
        const FrameInterceptor* interceptor;
    };
    std::optional<UntracedCall> untracedCall_;  // runUntracedUntilReturn's
    // Where the call `at` returns to its frame (or raises through it): tracing as before it.
    void endUntracedCall(const Expr& at);
    CallSite site_;
    std::map<std::string, Value, std::less<>> builtins_;
    std::map<std::string, Value, std::less<>> unnamedTypes_;  // NoneType, function, ...: one object each, so `is` holds
    std::map<std::string, Value, std::less<>> rootModules_;  // importable: torch, math
    // sys.modules for the script's own modules, by dotted name; their trees live as long.
    struct ScriptModule {
        Value module;
        std::string file, dir;   // as ScriptModuleFile's
        std::string globalName;  // __import_NAME, as a guard names it
    };
    std::map<std::string, ScriptModule> scriptModules_;
    // By __import_NAME: a PyTorch module (torch.nn.modules.linear) as Fusescope's library has
    // it, the globals of the library module that defines its classes.
    mutable std::map<std::string, Value> torchModuleViews_;
    // (function, line): the PyTorch module that has that line ("" where none has)
    mutable std::map<std::pair<const FunctionObject*, int>, std::string> torchLineModules_;
    mutable std::map<std::pair<std::string, int>, std::string> torchGeneratorModules_;
    std::map<std::string, Value> dynamoGlobals_;  // a generator expression's frames'
    std::vector<std::unique_ptr<Module>> scriptModuleTrees_;
    std::set<std::string> scriptFiles_;  // the files of those modules (isScriptFile)
    std::string scriptDir_;  // sys.path[0]: the script's directory ("" for the working directory)
    const std::map<std::string, std::string>* sentFiles_ = nullptr;
    ConfigModules configs_;
    mutable std::unordered_map<const void*, std::set<std::string>> localNameCache_;
    mutable std::unordered_map<const void*, std::vector<std::string>> freeNameCache_;
    const Expr* testExpr_ = nullptr;  // the expression evaluated now whose truth a jump tests (testTruth)  // freeVariables' names, by code
    // Scopes that nested functions closed over. A function stored in the scope it closes over
    // is a reference cycle; the destructor clears these scopes to break every such cycle.
    std::vector<std::weak_ptr<Scope>> closureScopes_;
    // Every class and instance made: their dicts are cleared at the end, breaking the
    // cycles script objects can form (obj.me = obj, Foo.default = Foo()).
    std::vector<std::weak_ptr<DictObject>> objectDicts_;
    std::unordered_map<const Object*, std::weak_ptr<Object>> storedInto_;  // noteStoredInto's
    ClassPtr objectClass_;
    ClassPtr typeClass_;
    std::map<std::string, ClassPtr, std::less<>> extraExceptionClasses_;
    // Exceptions whose except blocks are running; a bare `raise` re-raises the last.
    std::vector<std::exception_ptr> handling_;
    GeneratorObject* runningGenerator_ = nullptr;  // the innermost generator whose body runs now
    std::vector<std::weak_ptr<GeneratorObject>> generators_;  // every generator made, for closeGenerators
};

// Sets the interpreter's tracer and frame interceptor for a scope, putting back those it found.
class HooksScope {
public:
    HooksScope(Interpreter& in, TraceHooks* tracer, const Interpreter::FrameInterceptor* interceptor)
        : in_(in), tracer_(in.tracer()), interceptor_(in.frameInterceptor()) {
        in.setTracer(tracer);
        in.setFrameInterceptor(interceptor);
    }
    ~HooksScope() {
        in_.setTracer(tracer_);
        in_.setFrameInterceptor(interceptor_);
    }
    HooksScope(const HooksScope&) = delete;
    HooksScope& operator=(const HooksScope&) = delete;

private:
    Interpreter& in_;
    TraceHooks* tracer_;
    const Interpreter::FrameInterceptor* interceptor_;
};

// Builtins and namespaces, defined in their own files.
void addPythonBuiltins(std::map<std::string, Value, std::less<>>& builtins);
// sorted()'s order of `items` under the call's key= and reverse= (list.sort shares it).
ValueList sortedValues(Interpreter& in, const ValueList& items, CallArgs& a);
// object, BaseException and its subclasses, and the builtins of the object model: type,
// super, property, getattr, ... (classes.cpp, exceptions.cpp)
ClassPtr addObjectModelBuiltins(Interpreter& interp, std::map<std::string, Value, std::less<>>& builtins);
ClassPtr makeTypeClass(Interpreter& interp, const ClassPtr& object);  // Interpreter::typeClass()'s
ClassPtr builtinClass(Interpreter& interp, const std::string& name, const ClassPtr& base);  // of module builtins
void addExceptionClasses(Interpreter& interp, const ClassPtr& object, std::map<std::string, Value, std::less<>>& builtins);
Value makeTorchModule(ConfigModules& configs);
Value makeMathModule();
Value makeTimeModule();
// torch.profiler: record_function, ExecutionTraceObserver, profile, schedule, ... (profiler_module.cpp)
void populateProfilerModule(ModuleObject& profiler);
// Autocast's casts of an op's inputs (script/autocast.cpp), and the torch functions that
// read and set its state (is_autocast_enabled, set_autocast_enabled, ...).
void castForAutocast(Interpreter& in, const std::string& op, ValueList& args, std::vector<std::pair<std::string, Value>>& kwargs,
                     const CallSite& site);
void populateAutocastFunctions(ModuleObject& torch);
// torch.save and torch.load (script/checkpoint/torch_checkpoint.cpp).
void populateCheckpointFunctions(ModuleObject& torch);
Value makeLoggingModule();
Value constantValue(const Constant& constant);  // a literal's value (the interpreter's and ast.literal_eval's)
// _system: the machine as the library's os and sys read it (system_module.cpp).
Value makeSystemModule(const std::string& scriptFile);
Value makeRegexModule();  // re's engine (regex_module.cpp)
Value makeStructModule(Interpreter& interp);  // _struct: struct's pack and unpack (struct_module.cpp)
// _pickle: the exceptions torch.load raises (PickleError, UnpicklingError, ...), which the
// library's pickle module names (script/checkpoint/torch_checkpoint.cpp).
Value makePickleModule(Interpreter& interp);
// safetensors, with safetensors.torch's load_file/save_file/load/save (script/checkpoint/).
Value makeSafetensorsModule(Interpreter& interp);
Value makeBinasciiModule(Interpreter& interp);  // binascii: base64's and hex's conversions (binascii_module.cpp)
// zlib (zlib_module.cpp); None where the engine was built without zlib.
Value makeZlibModule(Interpreter& interp);
Value makeCollectionsModule();  // _collections: OrderedDict, which the library's collections.py re-exports  // the level constants torch._logging.set_logs takes
// Autograd (autograd_module.cpp): tensor.backward(gradient, retain_graph), tensor.retain_grad(),
// tensor.grad and its assignment, and torch.autograd.grad.
Value tensorBackward(Interpreter& interp, const Value& tensor, CallArgs& args);
Value tensorRetainGrad(Interpreter& interp, const Value& tensor);
Value tensorGrad(const Tensor& tensor);
Value gradFnValue(const std::shared_ptr<AutogradNode>& node);  // None for a leaf's (null)
void setTensorGrad(Interpreter& interp, const Tensor& tensor, const Value& grad);
void populateAutogradModule(ModuleObject& autograd);
Value makeDistributedModule();  // torch.distributed (distributed_module.cpp)
// tensor.split(size_or_sections, dim) / tensor.chunk(chunks, dim) as narrow views (a[0] is the
// tensor); torch.split / torch.chunk take the same arguments.
Value splitTensor(Interpreter& interp, const CallArgs& args, bool chunks);
// Python's format(value, spec) for f-strings.
std::string formatWithSpec(const Value& value, const std::string& spec);
// format % args, printf-style (types/percent_format.cpp).
Value percentFormat(Interpreter& in, const std::string& format, const Value& args);
// Conversions between interpreter values and op values.
IValue toIValue(const Value& value);
Value fromIValue(const IValue& value);

}  // namespace fusescope
