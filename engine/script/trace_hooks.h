#pragma once
// What the interpreter asks of the capture layer while it runs a compiled function. The
// interpreter stays a plain Python evaluator; a TraceHooks implementation (capture/Tracer)
// turns tensor ops into graph nodes, installs guards on the values the code depends on,
// and breaks the graph where the code needs real tensor data.

#include <optional>
#include <string>

#include "observe/graph_break.h"
#include "ops/op_call.h"
#include "ops/op_registry.h"
#include "script/ast.h"
#include "script/value.h"

namespace fusescope {

struct Stmt;

// Thrown by the tracer to trace the compiled frame again from its start, as Dynamo restarts
// a frame after a graph break it cannot resume from where it happened. The tracer throws it
// only where the code run so far changed nothing outside the trace, so running it again is
// running it once: no except, finally or Python __exit__ runs as it passes (torch's own
// context managers restore their state).
struct TraceRestart {};
// Thrown where a break in torch's own code the compiled frame called cannot restart the frame
// (a resume function's): the call is abandoned where it broke and made again from its start,
// eagerly, at the compiled frame's call `call` (its frame `frame` on the stack), as Dynamo's
// restarted trace makes it. Torch's code so far changed nothing but the grad mode.
struct CallRestart : TraceRestart {
    const Expr* call = nullptr;
    std::size_t frame = 0;
    bool gradMode = true;  // as the call began
};

// Tensor ops during tracing come through the dispatcher's capture layer (captureOp):
// recorded into the graph, with lazy results.
class TraceHooks : public CaptureHandler {
public:
    // Whether t is a graph value (its data does not exist yet).
    virtual bool isLazy(const Tensor& t) const = 0;
    // The device of the tensor a graph value stands for (its meta tensor's own is "meta");
    // t's own device when t is not one, or that device is not known.
    virtual Device deviceOf(const Tensor& t) const = 0;
    // The graph must end here (print, data-dependent branch, explicit break, unsupported
    // call): compile and run what was captured so far, so every lazy tensor becomes real.
    virtual void graphBreak(const GraphBreak& why) = 0;
    // How graph value t was computed, as Dynamo explains a data-dependent branch: the
    // function-call nodes leading to it with their lines ("" when t is no graph value).
    virtual std::string computationTrace(const Tensor& t) const = 0;
    // The op that made graph value t ("any", "gt"), or "".
    virtual std::string producingOp(const Tensor& t) const = 0;
    // A statement is about to run in traced code (for trace_source).
    virtual void onStatement(const Stmt& stmt) = 0;
    // The traced code read a value that came from an input (value.source is set): a
    // Python scalar gets a guard on its value, a tensor remembers its source for the
    // guards made when it is lifted into the graph.
    virtual void onInputUse(const Value& value) = 0;
    // The traced code depends on the length of a list/tuple input: guard it.
    virtual void onLengthUse(const Value& value) = 0;
    // The traced code walked a dict input (its keys, values or items, in order): guard its keys.
    virtual void onDictWalk(const Value& dict) { onLengthUse(dict); }
    // The traced code read one of an nn.Module's hooks dicts (_forward_hooks, ...) that Dynamo
    // reads by its own rules: an empty one unguarded, a full one by its length and its values.
    virtual void onModuleHooksRead(const Value& dict) { (void)dict; }
    // Whether Dynamo names a dict's values by their keys' positions (an nn.Module's hooks dict).
    virtual bool valuesByPosition(const Value& dict) const { (void)dict; return false; }
    // How the trace names what class `owner` (along an instance's MRO) holds under `name`, first
    // reached as `reached`.
    virtual SourcePtr mroOwnerSource(const ClassObject& owner, const std::string& name, const SourcePtr& reached) {
        (void)owner, (void)name;
        return reached;
    }
    // The traced code read method `name` of a list input (seen.append): Dynamo builds the list
    // there; one the code changes is rebuilt after the graph, item by item.
    virtual void onListMethod(const Value& list, const std::string& name) { (void)list, (void)name; }
    // The traced code tested a dict input's truth (`if d:`).
    virtual void onDictTruth(const Value& dict) { onLengthUse(dict); }
    // The traced code asked whether `key` is in a dict input (a module's _parameters, say):
    // guard the answer.
    virtual void onContainsUse(const Value& dict, const Value& key, bool found) = 0;
    // getattr(x, name, default) or hasattr(x, name) asked whether object x has attribute `name`.
    virtual void onHasAttribute(const Value& object, const std::string& name, bool found) { (void)object, (void)name, (void)found; }
    // The traced code depends on size `dim` of a tensor as a plain int: guard that size.
    virtual void onSizeUse(const Tensor& t, int64_t dim) = 0;
    // The traced code read size `dim` of a tensor (x.shape, x.size(d)): a SymInt where that
    // dim is dynamic, the graph computing it (it specializes only where read as a plain
    // int), or null: the size is an int, guarded by onSizeUse.
    virtual SymbolicIntPtr symbolicSize(const Tensor& t, int64_t dim) { return (void)t, (void)dim, nullptr; }
    // Python int arithmetic (+ - * //) with a SymInt operand: the SymInt of its result, or
    // nullopt when it can't be one (its operands are then read as plain ints).
    virtual std::optional<Value> symbolicArithmetic(BinaryOperator op, const Value& left, const Value& right) {
        return (void)op, (void)left, (void)right, std::nullopt;
    }
    // -x of a SymFloat: the SymFloat of its result, or nullopt (read as a plain float).
    virtual std::optional<Value> symbolicNegative(const Value& value) { return (void)value, std::nullopt; }
    // A comparison with a SymInt operand: its answer, guarded to stay the same (PyTorch's
    // shape-environment guard), or nullopt (compared as plain ints).
    virtual std::optional<bool> symbolicCompare(CompareOperator op, const Value& left, const Value& right) {
        return (void)op, (void)left, (void)right, std::nullopt;
    }

    // A SymFloat passed to an op inside a call Dynamo runs on fake tensors (F.dropout2d's
    // _VF.feature_dropout): the op reads it as a number, as PyTorch's argument parser does,
    // which specializes it there (`madeIn`: PyTorch's place of that call, "" if it has none):
    // the number to pass instead, or nullopt to pass it as it is.
    virtual std::optional<Value> floatReadByOp(const Value& value, const std::string& madeIn) {
        return (void)value, (void)madeIn, std::nullopt;
    }

    // An attribute of a module reached through a global (torch.cat, F.relu) was read: the
    // module is guarded by its id, as Dynamo guards it.
    virtual void onModuleUse(const Value& module) { (void)module; }
    // A function or builtin reached through a global is about to be called (guarded by its
    // id, or a Python function by its __code__).
    virtual void onCalleeUse(const Value& callee) { (void)callee; }
    // The traced code consumes `value` (passes it to a call, calls it, computes with it): where
    // Dynamo realizes a lazily built value, and so where its guards are made.
    virtual void onRealize(const Value& value) { (void)value; }
    // The compiled function's own frame returns `result` (an input returned as it is is guarded there).
    virtual void onReturn(const Value& result) { (void)result; }
    // A call of a module Dynamo refuses (nn.GRU) is about to break the graph: Dynamo wrapped the
    // module as a delayed break, unguarded, and the call's arguments as it loaded them.
    virtual void onRefusedModuleCall(const Value& module, const ValueList& args) { (void)module, (void)args; }
    // A cell variable (a local a nested scope reads) was loaded: Dynamo builds it here.
    virtual void onCellLoad(const Value& value) { (void)value; }
    // The method `name` of `instance` was found on a base class of its class, `definer`: the
    // classes before it along the MRO must not come to define it.
    virtual void onInheritedMethod(const Value& instance, const ClassObject& definer, const std::string& name) {
        (void)instance, (void)definer, (void)name;
    }
    // The traced code calls an nn.Module; where its own hooks do not already decide that its
    // call runs Module.__call__, Dynamo reads torch.nn's global hooks: whether any is set.
    virtual bool onNnModuleCall(bool readGlobalHooks) { (void)readGlobalHooks; return false; }
    // The source `module` was first reached by when this read reaches it by another (guarded
    // so: OBJECT_ALIASING); null when this is its first source.
    virtual SourcePtr firstSourceOf(const Value& module) { return (void)module, nullptr; }
    // An int argument (a float argument, global or attribute) the traced code reads: the SymInt
    // (SymFloat) it stands for where a recompile made it dynamic (Dynamo's automatic dynamic for
    // ints and floats), else nullopt (a constant, guarded).
    virtual std::optional<Value> symbolicInput(const Value& value) { return (void)value, std::nullopt; }
    // Where the traced code reads builtin `name` from (Dynamo's G['__builtins_dict___0']['len']),
    // or null to leave it unguarded.
    virtual SourcePtr builtinSource(const std::string& name) { return (void)name, nullptr; }

    // For running a cached graph without its Python (capture/direct_call.h): what the traced
    // code reads or changes outside what it made itself.
    // A container or instance is about to be read or changed.
    virtual void onObjectTouch(const Value& object) { (void)object; }
    // A variable of an enclosing function's scope or of the script's globals is about to be
    // read or changed.
    virtual void onScopeTouch(const ScopePtr& scope, const std::string& name) { (void)scope, (void)name; }
    // `base.grad` was read.
    virtual void onGradRead(const Tensor& base) { (void)base; }
    // type(t) of a tensor the code reached from an input (Dynamo's TensorVariable.python_type).
    virtual void onTensorTypeRead(const Value& tensor) { (void)tensor; }
    // A dict the code changes (d[k] = v): Dynamo guards its keys as they were.
    virtual void onDictWrite(const Value& dict) { (void)dict; }
    // A method Dynamo runs itself rather than tracing it (an optimizer's _init_group): its
    // result, or nullopt where the call is traced as any other.
    virtual std::optional<Value> runInsteadOfTracing(const Value& callee, CallArgs& args) {
        return (void)callee, (void)args, std::nullopt;
    }
    // What traced code reads as dict[key] where that is not the dict's own value (an
    // optimizer's param group reads capturable=True while traced, as Dynamo's); else nullopt.
    virtual std::optional<Value> tracedDictItem(const Value& dict, const std::string& key) {
        return (void)dict, (void)key, std::nullopt;
    }
    // Something the graph does not hold happened (a tensor's grad set, the random seed, ...).
    virtual void onUntracedEffect(const std::string& what) { (void)what; }
    // The compiled frame's own code is about to call `callee`: where an earlier trace of this
    // frame broke the graph inside that call, the graph ends here and the call runs eagerly (its
    // frames compiled on their own); its result then, else nullopt (the call is traced).
    virtual std::optional<Value> callAtBreak(const Expr& call, const Value& callee, CallArgs& args) {
        return (void)call, (void)callee, (void)args, std::nullopt;
    }
    // The compiled frame's own code goes on after `at`, a call or subscript, with `value`;
    // where `at` broke the graph, Dynamo goes on in a resume function of its own.
    virtual void resumeAfter(const Expr& at, Value& value) { (void)at, (void)value; }
    // ... or after an if's test, into the branch `taken`.
    virtual void resumeInBranch(const Expr& test, bool taken) { (void)test, (void)taken; }
};

}  // namespace fusescope
