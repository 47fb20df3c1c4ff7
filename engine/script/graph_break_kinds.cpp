#include "script/graph_break_kinds.h"

#include <algorithm>

#include <fmt/format.h>

#include "script/ast.h"
#include "script/object_model.h"

namespace fusescope::graph_breaks {
namespace {

// graph_break_hints.py's shared hints, as PyTorch 2.15 words them.
const char* const kSupportable =
    "It may be possible to write Dynamo tracing rules for this code. Please report an issue to PyTorch if you "
    "encounter this graph break often and it is causing performance issues.";
const char* const kFundamental =
    "This graph break is fundamental - it is unlikely that Dynamo will ever be able to trace through your code. "
    "Consider finding a workaround.";
const char* const kUserError =
    "Your code may result in an error when running in eager. Please double check that your code doesn't contain a "
    "similar error when actually running eager/uncompiled. You can do this by removing the `torch.compile` call, or "
    "by using `torch.compiler.set_stance(\"force_eager\")`. ";

// The class of Dynamo's VariableTracker for a value (the developer context names it).
std::string variableClass(const Value& v) {
    if (v.isTensor()) return "torch._dynamo.variables.tensor.TensorVariable";
    if (v.symbolic() || v.symbolicFloat()) return "torch._dynamo.variables.tensor.SymNodeVariable";
    const std::string type = pythonTypeName(v);
    if (type == "str" || type == "int" || type == "float" || type == "bool" || type == "NoneType")
        return "torch._dynamo.variables.constant.ConstantVariable";
    if (type == "list") return "torch._dynamo.variables.lists.ListVariable";
    if (type == "tuple") return "torch._dynamo.variables.lists.TupleVariable";
    if (type == "Size") return "torch._dynamo.variables.lists.SizeVariable";
    if (type == "dict") return "torch._dynamo.variables.dicts.ConstDictVariable";
    if (auto* instance = v.as<InstanceObject>(); instance && instance->cls->isBuiltin() &&
        std::any_of(instance->cls->mro.begin(), instance->cls->mro.end(), [](const ClassObject* c) { return c->name == "BaseException"; }))
        return "torch._dynamo.variables.exception.ExceptionVariable";  // a builtin exception's
    return "torch._dynamo.variables.user_defined.UserDefinedObjectVariable";
}

// A VariableTracker's repr: ConstantVariable(str: 'why'), TensorVariable().
std::string variableRepr(const Value& v) {
    if (v.isTensor()) return "TensorVariable()";
    const std::string cls = variableClass(v);
    const std::string name = cls.substr(cls.rfind('.') + 1);
    if (name == "ConstantVariable") return fmt::format("ConstantVariable({}: {})", pythonTypeName(v), valueRepr(v));
    return name + "()";
}

GraphBreak callBreak(std::string gbType, std::string explanation, std::vector<std::string> hints, std::string context) {
    return GraphBreak{std::move(gbType), std::move(explanation), std::move(hints), std::move(context), kCallInstruction};
}

}  // namespace

GraphBreak builtinCall(const std::string& name, const std::vector<Value>& args, bool hasKwargs) {
    std::string types, classes;
    for (const Value& a : args) {
        types += (types.empty() ? "'" : ", '") + std::string(a.isTensor() ? "Tensor" : pythonTypeName(a)) + "'";
        classes += (classes.empty() ? "<class '" : ", <class '") + variableClass(a) + "'>";
    }
    const std::string kwargs = hasKwargs ? "True" : "False";
    return callBreak("Failed to trace builtin operator",
                     fmt::format("Dynamo does not know how to trace builtin operator `{}` with argument types [{}] (has_kwargs {})",
                                 name, types, kwargs),
                     {fmt::format("Avoid calling builtin `{0}` with argument types [{1}]. Consider using an equivalent "
                                  "alternative function/method to `{0}`.",
                                  name, types),
                      "If you are attempting to call a logging function (e.g. `print`), you can try adding it to "
                      "`torch._dynamo.config.reorderable_logging_functions`.",
                      "Please report an issue to PyTorch."},
                     fmt::format("builtin {} [{}] {}", name, classes, kwargs));
}

GraphBreak dataDependentBranch(const std::string& trace, const std::string& op, DType dtype, int64_t dim) {
    std::vector<std::string> hints;
    if (dim == 0 && (dtype == DType::Int32 || dtype == DType::Int64))
        hints.push_back("The branch condition uses a scalar integer tensor. Consider rewriting the computation to use "
                        "plain Python ints (e.g. use int attributes instead of tensor buffers) so the condition becomes a "
                        "shape guard instead of data-dependent branching.");
    if (dim == 0 && dtype == DType::Bool)
        hints.push_back("For the common pattern `if tensor_cond: x = transform(x)` (e.g. clamping inf/nan values), "
                        "consider making the code branchless by always applying the transform. Operations like "
                        "torch.clamp, torch.nan_to_num, and torch.where are typically no-ops on well-behaved inputs and "
                        "compile without graph breaks.");
    if (op == "any" || op == "all" || op == "bitwise_and" || op == "bitwise_or")
        hints.push_back("Note: Python `or`/`and` between tensor expressions (e.g. `tensor.any() or other_tensor.any()`) "
                        "triggers implicit bool conversion. Use `torch.logical_or`/`torch.logical_and` or the `|`/`&` "
                        "operators instead.");
    hints.push_back(kFundamental);
    hints.push_back("Use `torch.cond` to express dynamic control flow.");
    GraphBreak b{"Data-dependent branching",
                 "Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does not support tracing "
                 "dynamic control flow." + trace,
                 std::move(hints), "attempted to jump with TensorVariable()"};
    b.explainReason = "generic_jump TensorVariable()";
    return b;
}

GraphBreak itemCall() {
    GraphBreak b = callBreak("Unsupported Tensor.item() call with capture_scalar_outputs=False",
                             "Dynamo does not support tracing `Tensor.item()` with config.capture_scalar_outputs=False.",
                             {"Set `torch._dynamo.config.capture_scalar_outputs = True` or `export "
                              "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations in the captured graph."},
                             "call_method TensorVariable() item () {}");
    b.warning = "Graph break from `Tensor.item()`, consider setting:\n"
                "    torch._dynamo.config.capture_scalar_outputs = True\n"
                "or:\n"
                "    env TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1\n"
                "to include these operations in the captured graph.\n"
                "\n"
                "Graph break: from user code at:\n";
    return b;
}

GraphBreak tolistCall(DType dtype) {
    if (isIntegral(dtype) || dtype == DType::Bool) return dataDependentOperator("aten._local_scalar_dense.default", false);
    return callBreak("Tensor.tolist() with non-integer tensor",
                     "Dynamo currently does not support tracing `tolist()` on non-integer tensors.",
                     {"Ensure the input tensor to `tolist()` is an integer type (e.g., int8, int16, int32, int64)."},
                     "call_method TensorVariable() to_list");
}

GraphBreak tensorRepr() {
    return callBreak("repr() on tensor", "Tensor repr requires actual runtime values which are not available during tracing.",
                     {kSupportable}, "repr() on Tensor");
}

GraphBreak dataDependentOperator(const std::string& atenOp, bool ungraceful) {
    GraphBreak b = callBreak(
        "Data dependent operator",
        fmt::format("Operator `{}` has a non-Tensor output whose value is dependent on the data of Tensor inputs.", atenOp),
        {"Enable tracing of data-dependent output operators with `torch._dynamo.config.capture_scalar_outputs = True`"},
        atenOp);
    b.ungraceful = ungraceful;
    return b;
}

GraphBreak dynamicShapeOperator(const std::string& atenOp, const std::string& instruction) {
    GraphBreak b = callBreak("Dynamic shape operator", fmt::format("Operator `{}`'s output shape depends on input Tensor data.", atenOp),
                             {"Enable tracing of dynamic shape operators with "
                              "`torch._dynamo.config.capture_dynamic_output_shape_ops = True`"},
                             atenOp);
    b.instruction = instruction;
    return b;
}

GraphBreak userGraphBreak(const std::vector<Value>& args, const std::vector<std::pair<std::string, Value>>& kwargs) {
    std::string argText, kwargText, message = "None";
    for (const Value& a : args) argText += (argText.empty() ? "" : ", ") + variableRepr(a);
    for (const auto& [name, value] : kwargs) {
        kwargText += fmt::format("{}'{}': {}", kwargText.empty() ? "" : ", ", name, variableRepr(value));
        if (name == "msg") message = valueStr(value);
    }
    return callBreak("Call to `torch._dynamo.graph_break()`", "User-inserted graph break. Message: " + message,
                     {"Remove the `torch._dynamo.graph_break()` call."},
                     fmt::format("Called `torch._dynamo.graph_break()` with args `[{}]`, kwargs `{{{}}}`", argText, kwargText));
}

GraphBreak skippedDynamoFunction(const std::string& name) {
    return callBreak("Attempted to call function marked as skipped",
                     fmt::format("Dynamo developers have intentionally marked that the function `{}` in file "
                                 "`torch/_dynamo/__init__.py` should not be traced.",
                                 name),
                     {fmt::format("Avoid calling the function `{}`.", name)},
                     fmt::format("module: torch._dynamo, qualname: {}, skip reason: file matches MOD_SKIPLIST (torch/_dynamo)", name));
}

GraphBreak backwardCall() {
    return callBreak("Unsupported Tensor.backward() call",
                     "Dynamo currently does not support tracing `Tensor.backward()` when trace_autograd_ops is off.",
                     {"Set torch._dynamo.trace_autograd_ops=True"},
                     "call_method TensorVariable() backward None None None None");
}

GraphBreak disabledFunction(const std::string& functionRepr, const std::string& reason) {
    return callBreak("Skip calling `torch.compiler.disable()`d function",
                     fmt::format("Skip calling function `{}` since it was wrapped with `torch.compiler.disable` (reason: {})",
                                 functionRepr, reason.empty() ? "None" : reason),
                     {"Remove the `torch.compiler.disable` call"}, functionRepr);
}

GraphBreak skippedFunction(const std::string& qualname) {
    return callBreak("Attempted to inline function marked as skipped",
                     fmt::format("Dynamo developers have intentionally marked that the function `{}` should not be traced.", qualname),
                     {fmt::format("Avoid calling the function `{}`.", qualname),
                      fmt::format("Apply `@torch._dynamo.dont_skip_tracing` to the function `{}` to force tracing into the "
                                  "function. More graph breaks may occur as a result of attempting to trace into the function.",
                                  qualname),
                      "Please file an issue to PyTorch."},
                     fmt::format("qualname: {}, name: inner, filename: `torch/_compile.py`, skip reason: file matches "
                                 "MOD_SKIPLIST (torch/_compile)",
                                 qualname));
}

GraphBreak refusedModuleCall(const std::string& reason, const std::string& moduleSource) {
    if (reason == "Module-level backwards hooks require compiled autograd.")
        return callBreak(reason, "", {"Enable compiled autograd by setting torch._dynamo.config.compiled_autograd = True."}, "");
    // Dynamo's repr of the source, for a global or a local of the compiled function.
    std::string context = "source: " + moduleSource;
    const bool simple = moduleSource.size() > 5 && moduleSource.find('[', 3) == std::string::npos;
    const std::string name = simple ? moduleSource.substr(3, moduleSource.size() - 5) : "";
    if (simple && moduleSource.rfind("G['", 0) == 0) context = fmt::format("source: GlobalSource(global_name='{}')", name);
    if (simple && moduleSource.rfind("L['", 0) == 0)
        context = fmt::format("source: LocalSource(local_name='{}', is_input=True, dynamism=None, is_derefed_cell_contents=False)", name);
    return callBreak("Unsupported function call (delayed)",
                     fmt::format("Dynamo determined that a graph break should occur when calling `{}`. Reason: {}",
                                 moduleSource, reason),
                     {}, context);
}

GraphBreak fakeTensorCall(const std::string& message) {
    return GraphBreak{"RuntimeError when making fake tensor call", message, {kUserError}, ""};
}

GraphBreak observedException(const std::string& exceptionRepr) {
    GraphBreak b{"Observed exception",
                 "Dynamo found no exception handler at the top-level compiled function when encountering an exception. "
                 "Exception will propagate outside the compiled region.",
                 {kUserError, kSupportable}, "raised exception " + exceptionRepr};
    b.ungraceful = true;
    return b;
}

GraphBreak tensorGradFn() {
    GraphBreak b{"Tensor with grad_fn()", "Dynamo does not support tracing tensors with a grad_fn directly.", {},
                 "tp_getattro_impl TensorVariable() grad_fn"};
    b.ungraceful = true;
    return b;
}

GraphBreak breakInLoop(const std::string& frameInfo) {
    return GraphBreak{"graph break in loop",
                      "torch.compile detected a graph break in a for/while loop. Skipping the frame and falling back to "
                      "eager, as graph breaks in loops are not supported.",
                      {"This graph break may have been caused by an earlier graph break. Resolving the earlier graph break "
                       "may resolve this one."},
                      "frame skipped: " + frameInfo};
}

GraphBreak fusescopeOnly(const std::string& what, const std::string& why) {
    return GraphBreak{"Fusescope does not trace " + what, why,
                      {"PyTorch 2.15 traces this without a graph break; Fusescope does not yet."}, "Fusescope"};
}

const char* instructionOf(const Expr& e) {
    if (e.kind == ExprKind::Subscript) return kSubscriptInstruction;
    if (e.kind != ExprKind::Call) return kCallInstruction;
    const Call& call = e.as<Call>();
    const bool variadic = std::any_of(call.args.begin(), call.args.end(), [](const ExprPtr& a) { return a->kind == ExprKind::Starred; }) ||
                          std::any_of(call.keywords.begin(), call.keywords.end(), [](const Keyword& k) { return k.name.empty(); });
    return variadic ? kVariadicCallInstruction : kCallInstruction;
}

}  // namespace fusescope::graph_breaks
