#pragma once
// A tree-walking interpreter for the script subset (docs/scripts.md).
// Outside compiled functions tensor ops run eagerly through the op registry; inside them
// the interpreter hands ops to TraceHooks (the capture layer), which records graphs.

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ops/op_call.h"
#include "observe/event.h"
#include "script/ast.h"
#include "script/trace_hooks.h"
#include "script/value.h"

namespace fusescope {

// Variables of one function call (or of the module).
struct Scope {
    std::unordered_map<std::string, Value> vars;
    ScopePtr parent;  // lexically enclosing function scope; null at module level
    bool isModule = false;
    std::set<std::string> globalNames;    // declared `global`
    std::set<std::string> nonlocalNames;  // declared `nonlocal`
    const std::set<std::string>* localNames = nullptr;  // names the function assigns
};

// One active function call, innermost last on the interpreter's stack.
struct Frame {
    std::string function;  // qualified name; "<module>" at top level
    SourceLocation where;  // the statement running now
    bool traced = false;   // runs under TraceHooks
    int inlineDepth = 0;   // 0 for the compiled function itself, 1 for a call it makes, ...
};

// Options of torch.compile / torch._dynamo.optimize.
struct CompileOptions {
    std::string backend = "inductor";
    std::string dynamic = "auto";  // "auto" (None), "true", "false"
    Value guardFailFn;             // None or a callable taking the failure
    bool fullgraph = false;        // a graph break is an error
};

// The function torch.compile returned.
struct CompiledFunctionObject : Object {
    Value function;  // the FunctionObject
    CompileOptions options;
    std::string typeName() const override { return "function"; }
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
    virtual void setLogs(const CallArgs& args) = 0;           // torch._logging.set_logs(...)
    // Polled before every statement: true stops the script with KeyboardInterrupt.
    virtual bool cancelRequested() const { return false; }
};

// The config modules scripts set and compiles read: torch._dynamo.config and
// torch._inductor.config (owned by the torch module).
struct ConfigModules {
    ModuleObject* dynamo = nullptr;
    ModuleObject* inductor = nullptr;
};

class Interpreter {
public:
    Interpreter(const Module& module, ScriptHost& host);
    ~Interpreter();

    // Runs the module's statements. Throws Error / ScriptError on a script error.
    void run();

    // Calls any callable value.
    Value call(const Value& callee, CallArgs& args);
    // Runs a script function's body. With traced=true it runs under the current tracer at
    // inline depth `depth`, and the arguments' sources are the function's locals.
    Value callFunction(const FunctionObject& fn, CallArgs& args, bool traced = false, int depth = 0);
    // The function's parameters bound to a call's arguments, as Python binds them.
    std::vector<std::pair<std::string, Value>> bindArguments(const FunctionObject& fn, const CallArgs& args) const;
    // A module-level variable, or null.
    const Value* global(const std::string& name) const;

    // Tracing: the hooks of the compiled function being traced (null when running eagerly).
    TraceHooks* tracer() const { return tracer_; }
    void setTracer(TraceHooks* hooks) { tracer_ = hooks; }
    const std::vector<Frame>& stack() const { return stack_; }
    // The user stack of the traced code: frames from the compiled function inwards.
    std::vector<StackFrame> tracedStack() const;

    const Module& module() const { return module_; }
    ScriptHost& host() { return host_; }
    ModuleObject& dynamoConfig() { return *configs_.dynamo; }
    ModuleObject& inductorConfig() { return *configs_.inductor; }
    // The location of the statement or call running now (for messages).
    SourceLocation currentLocation() const;

    // Helpers shared by the builtins and the torch namespace.
    Value callOp(const std::string& opName, CallStyle style, const ValueList& args,
                 const std::vector<std::pair<std::string, Value>>& kwargs, const CallSite& site,
                 const std::string& symbol = "");
    bool truthy(const Value& value);  // may break the graph on a lazy tensor
    Tensor realTensor(const Tensor& t, const std::string& why);  // data needed now
    ValueList iterate(const Value& iterable);
    Value getAttribute(const Value& object, const std::string& name, const SourceLocation& where);
    int64_t length(const Value& value);
    [[noreturn]] void fail(const std::string& kind, const std::string& message) const;
    CallSite siteOf(const Expr& expr) const;
    // Python operators on values (tensors included), as the script would spell them.
    Value evalBinary(BinaryOperator op, const Value& left, const Value& right, const CallSite& site);
    Value evalCompare(CompareOperator op, const Value& left, const Value& right, const CallSite& site);
    // The call or operator being evaluated now (ops record it as their provenance).
    const CallSite& currentSite() const { return site_; }

private:
    enum class Flow { Normal, Break, Continue, Return };

    Flow exec(const StmtList& body);
    Flow exec(const Stmt& stmt);
    Flow execFor(const For& stmt);
    Flow execWith(const With& stmt);
    void execImport(const Stmt& stmt);
    void assign(const Expr& target, const Value& value);
    void augAssign(const AugAssign& stmt);
    Value makeFunction(const FunctionDef& def);
    ScopePtr closureScope();  // the scope a function defined now closes over (null at module level)

    Value eval(const Expr& expr);
    Value evalCall(const Call& call);
    Value evalUnary(const UnaryOp& expr);
    Value evalSubscript(const Value& object, const Value& index);
    void assignSubscript(const Value& object, const Value& index, const Value& value);
    Value indexTensor(const Value& tensor, const Value& index);
    Value evalComprehension(const Expr& elt, const std::vector<Comprehension>& generators, const Expr* dictValue,
                            bool isDict);
    Value evalJoinedStr(const JoinedStr& expr);
    Value lookup(const std::string& name, const SourceLocation& where);
    void store(const std::string& name, Value value);
    ScopePtr scopeFor(const std::string& name);
    Value withSource(Value value, SourcePtr source) const;

    const Module& module_;
    ScriptHost& host_;
    ScopePtr globals_;
    ScopePtr current_;
    std::vector<Frame> stack_;
    Value returnValue_;
    TraceHooks* tracer_ = nullptr;
    CallSite site_;
    std::map<std::string, Value, std::less<>> builtins_;
    std::map<std::string, Value, std::less<>> rootModules_;  // importable: torch, math
    ConfigModules configs_;
    std::unordered_map<const void*, std::set<std::string>> localNameCache_;
    // Scopes that nested functions closed over. A function stored in the scope it closes over
    // is a reference cycle; the destructor clears these scopes to break every such cycle.
    std::vector<std::weak_ptr<Scope>> closureScopes_;
};

// Builtins and namespaces, defined in their own files.
void addPythonBuiltins(std::map<std::string, Value, std::less<>>& builtins);
Value makeTorchModule(ConfigModules& configs);
Value makeMathModule();
// torch.profiler: record_function, ExecutionTraceObserver, profile, schedule, ... (profiler_module.cpp)
void populateProfilerModule(ModuleObject& profiler);
Value makeLoggingModule();  // the level constants torch._logging.set_logs takes
// Tensor attributes (shape, dtype, ...) and methods (x.add(...), x.size()).
Value tensorAttribute(Interpreter& interp, const Value& tensor, const std::string& name, const SourceLocation& where);
// x.view(2, 3) -> x.view((2, 3)) when the op's parameter after firstArg is an int[].
ValueList packSizeArguments(const OpDef& op, const ValueList& args, size_t firstArg);
// Python's format(value, spec) for f-strings.
std::string formatWithSpec(const Value& value, const std::string& spec);
// Conversions between interpreter values and op values.
IValue toIValue(const Value& value);
Value fromIValue(const IValue& value);

}  // namespace fusescope
