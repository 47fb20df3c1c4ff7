#pragma once
// Every kind of graph break Fusescope makes, each worded as PyTorch 2.15's Dynamo words the
// same code (gb_type, explanation, hints, developer context, the instruction it was
// tracing), measured by running that code under PyTorch 2.15. A break PyTorch does not make
// (Fusescope traces less there) says so in its own words and has no GB id.

#include <string>
#include <vector>

#include "observe/graph_break.h"
#include "script/value.h"

namespace fusescope {
struct Expr;
}

namespace fusescope::graph_breaks {

// print(...) and other builtins Dynamo cannot trace (GB0059).
GraphBreak builtinCall(const std::string& name, const std::vector<Value>& args, bool hasKwargs);
// if/while on a tensor (GB0170). `trace` is how the condition was computed (Tracer's
// computationTrace); `op` the op that made it; `dtype`/`dim` its type and rank.
GraphBreak dataDependentBranch(const std::string& trace, const std::string& op, DType dtype, int64_t dim);
// Tensor.item(), int(t), float(t) (GB0124).
GraphBreak itemCall();
// Tensor.tolist() of a floating-point tensor (GB0109), of an integer one (GB0033).
GraphBreak tolistCall(DType dtype);
// str(t), repr(t) (GB0569).
GraphBreak tensorRepr();
// An op whose Python result depends on tensor data: "%" formatting a tensor
// (aten._local_scalar_dense, which Dynamo cannot resume after), or an op with a non-tensor
// output (GB0033).
GraphBreak dataDependentOperator(const std::string& atenOp, bool ungraceful);
// An op whose output shape depends on data: a boolean-mask index (GB0036).
GraphBreak dynamicShapeOperator(const std::string& atenOp, const std::string& instruction);
// torch._dynamo.graph_break(), its arguments as Dynamo prints them (GB0025).
GraphBreak userGraphBreak(const std::vector<Value>& args, const std::vector<std::pair<std::string, Value>>& kwargs);
// A function of torch._dynamo's own, which Dynamo skips (GB0007): torch._dynamo.reset().
GraphBreak skippedDynamoFunction(const std::string& name);
// Tensor.backward() (GB0123).
GraphBreak backwardCall();
// A call of a function wrapped with torch.compiler.disable (GB0098): its repr and the
// reason given ("" for None).
GraphBreak disabledFunction(const std::string& functionRepr, const std::string& reason);
// A call of a function torch._disable_dynamo marks (GB0008): PyTorch's optimizers'
// zero_grad, say.
GraphBreak skippedFunction(const std::string& qualname);
// A module whose call Dynamo refuses: backward hooks (GB0083), RNN/GRU/LSTM (GB0148).
GraphBreak refusedModuleCall(const std::string& reason, const std::string& moduleSource);
// An op's error while Dynamo runs it on fake tensors (GB4315), `message` the error as it is
// worded then ("Dynamo failed to run FX node with fake tensors: ...").
GraphBreak fakeTensorCall(const std::string& message);
// An exception no handler in the compiled function catches (GB0088).
GraphBreak observedException(const std::string& exceptionRepr);
// Reading .grad_fn of a graph value: Dynamo skips the whole function (GB0104).
GraphBreak tensorGradFn();
// Handling a break in a loop of the compiled frame (GB7000): Dynamo skips the frame.
// `frameInfo`: "f (/path/f.py line 3)", the frame's name, file and first line.
GraphBreak breakInLoop(const std::string& frameInfo);
// Where Fusescope breaks and PyTorch 2.15 traces on: "Fusescope does not trace " + what, and why.
GraphBreak fusescopeOnly(const std::string& what, const std::string& why);

// Dynamo's words for the instructions breaks happen at (Python 3.11's opcodes).
inline constexpr const char* kCallInstruction = "CALL: a function call, e.g. f(x, y)";
inline constexpr const char* kSubscriptInstruction = "BINARY_SUBSCR: a binary subscript, e.g. x[attr]";
inline constexpr const char* kVariadicCallInstruction = "CALL_FUNCTION_EX: a variadic function call, e.g. f(*args)";
// The instruction a call or subscript expression runs as (a call with *args or **kwargs is variadic).
const char* instructionOf(const Expr& e);

}  // namespace fusescope::graph_breaks
