// Graph breaks: each kind gives the expected graphs, break count and reason (PyTorch 2.15's
// gb_type and GB id), and the values stay right across the break.
#include <gtest/gtest.h>

#include <regex>

#include "test_support.h"

using fusescope::test::runScript;
using fusescope::test::countOccurrences;

namespace {

// PyTorch 2.15's message for torch._dynamo.graph_break() (its registry entry GB0025).
const std::string kUserBreak =
    "Call to `torch._dynamo.graph_break()`\n"
    "  Explanation: User-inserted graph break. Message: None\n"
    "  Hint: Remove the `torch._dynamo.graph_break()` call.\n"
    "\n"
    "  Developer debug context: Called `torch._dynamo.graph_break()` with args `[]`, kwargs `{}`\n"
    "\n"
    " For more details about this graph break, please visit: "
    "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0025.html\n";

struct BreakCase {
    const char* body;    // the compiled function's body
    int graphs;
    const char* reason;  // of the single break
    const char* gbId;
    const char* out;     // what the script prints
};

void expectOneBreak(const BreakCase& c) {
    std::string script = std::string("import torch\n\n@torch.compile(backend=\"eager\")\ndef fn(x):\n") + c.body +
                         "\nprint(fn(torch.tensor([1.0, -2.0, 4.0])))\n";
    auto run = runScript(script, "graph_breaks");
    ASSERT_EQ(run.error, "") << script;
    EXPECT_EQ(run.out, c.out);
    auto breaks = run.eventsOf<fusescope::GraphBreakEvent>();
    ASSERT_EQ(breaks.size(), 1u) << script;
    EXPECT_EQ(breaks[0].reason, c.reason);
    EXPECT_EQ(breaks[0].gbId, c.gbId);
    ASSERT_FALSE(breaks[0].userStack.empty());
    EXPECT_EQ(breaks[0].userStack.back().function, "fn");
    EXPECT_EQ(static_cast<int>(run.eventsOf<fusescope::GraphCapturedEvent>().size()), c.graphs) << run.logs;
}

}  // namespace

TEST(GraphBreaks, Print) {
    expectOneBreak({"    y = x * 2\n    print('mid', y)\n    return y + 1\n", 2,
                    "Failed to trace builtin operator", "GB0059",
                    "mid tensor([ 2., -4.,  8.])\ntensor([ 3., -3.,  9.])\n"});
}

TEST(GraphBreaks, DataDependentBranch) {
    expectOneBreak({"    if x.sum() > 0:\n        return x * 2\n    return x * 3\n", 2,
                    "Data-dependent branching", "GB0170", "tensor([ 2., -4.,  8.])\n"});
}

TEST(GraphBreaks, ExplicitGraphBreak) {
    expectOneBreak({"    x = x * 2\n    torch._dynamo.graph_break()\n    return x * 3\n", 2,
                    "Call to `torch._dynamo.graph_break()`", "GB0025", "tensor([  6., -12.,  24.])\n"});
}

TEST(GraphBreaks, UnsupportedCall) {
    expectOneBreak({"    n = x.abs().max().item()\n    return x / n\n", 2,
                    "Unsupported Tensor.item() call with capture_scalar_outputs=False", "GB0124",
                    "tensor([ 0.2500, -0.5000,  1.0000])\n"});
}

// bool(x) of a tensor is Tensor.item() to Dynamo (not a data-dependent jump), as PyTorch 2.15 says.
TEST(GraphBreaks, BoolOfATensorIsItsItem) {
    expectOneBreak({"    y = x * 2\n    c = bool((y > 100).all())\n    return y + 1 if c else y\n", 1,
                    "Unsupported Tensor.item() call with capture_scalar_outputs=False", "GB0124",
                    "tensor([ 2., -4.,  8.])\n"});
}

// PyTorch 2.15 warns once per process at the first Tensor.item() it cannot capture, naming
// the traced frames (its tensor.py _warn_capture_scalar_outputs); the second break is silent.
TEST(GraphBreaks, TheFirstItemBreakWarnsOnce) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def f(x):
    return x / x.max().item()

@torch.compile(backend="eager")
def g(x):
    return x * float(x.sum())

print(f(torch.ones(2)), g(torch.ones(2)))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.logs,
              "[0/0] [dynamo] WARNING: Graph break from `Tensor.item()`, consider setting:\n"
              "    torch._dynamo.config.capture_scalar_outputs = True\n"
              "or:\n"
              "    env TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1\n"
              "to include these operations in the captured graph.\n"
              "\n"
              "Graph break: from user code at:\n"
              "  File \"script.py\", line 5, in f\n"
              "    return x / x.max().item()\n"
              "               ~~~~~~~~~~~~^^\n"
              "\n"
              "\n");  // PyTorch's message ends in two empty lines too
}

// A break inside a function the compiled frame calls as g(*args, **kwargs) is at that call's
// instruction, CALL_FUNCTION_EX (PyTorch 2.15's log for this program); the tensors the call
// is handed are guarded as Dynamo wraps its stack there.
TEST(GraphBreaks, ABreakUnderAVariadicCallIsAtCallFunctionEx) {
    auto run = runScript(R"(import torch

def g(x, y, z=None):
    print("hi")
    return x + y

def f(*args, **kwargs):
    return g(*args, **kwargs)

t = torch.ones(2)
print(torch.compile(f, backend="eager")(t, t * 2, z=t * 3))
)",
                         "graph_breaks,guards");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "hi\ntensor([3., 3.])\n");
    EXPECT_NE(run.logs.find("Graph Break Reason: Encountered graph break when attempting to trace CALL_FUNCTION_EX: a "
                            "variadic function call, e.g. f(*args):\n"),
              std::string::npos) << run.logs;
    for (const char* source : {"L['args'][0]", "L['args'][1]", "L['kwargs']['z']"})
        EXPECT_NE(run.logs.find(std::string("TENSOR_MATCH: check_tensor(") + source), std::string::npos) << source << run.logs;
}

// A custom torch.autograd.Function is not traced into the graph yet (Dynamo traces it): the
// graph breaks at apply(), the Function runs eagerly, and training through it is eager's.
TEST(GraphBreaks, CustomAutogradFunctionRunsEagerly) {
    auto run = runScript(R"(import torch

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * grad

@torch.compile(backend="aot_eager")
def fn(x):
    return Cube.apply(x * 2) + 1

x = torch.tensor([1.0, -0.5, 2.0], requires_grad=True)
y = fn(x)
y.sum().backward()
print(y, x.grad)
)", "graph_breaks");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([ 9.,  0., 65.], grad_fn=<CompiledFunctionBackward>) tensor([24.,  6., 96.])\n");
    auto breaks = run.eventsOf<fusescope::GraphBreakEvent>();
    ASSERT_EQ(breaks.size(), 1u) << run.logs;
    EXPECT_EQ(breaks[0].reason, "Fusescope does not trace `Function.apply`");
    EXPECT_EQ(breaks[0].gbId, "");  // PyTorch makes no such break
    EXPECT_EQ(breaks[0].explanation, "torch.autograd.Function.apply: Fusescope does not trace custom autograd Functions "
                                     "into the graph yet; it runs eagerly");
    EXPECT_EQ(breaks[0].userStack.back().line, 16);  // return Cube.apply(x * 2) + 1
}

// As Dynamo: a module with backward hooks stops the trace at its call and runs eagerly, its
// hooks hearing of the gradients (PyTorch 2.15 prints the same hook line and gradient).
TEST(GraphBreaks, AModuleWithBackwardHooksRunsEagerly) {
    auto run = runScript(R"(import torch
import torch.nn as nn
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.fill_(0.5)
    lin.bias.zero_()
lin.register_full_backward_hook(lambda m, gi, go: print("hook", [g.shape for g in gi], [g.shape for g in go]))

@torch.compile(backend="aot_eager")
def f(x):
    return lin(x).relu().sum()

x = torch.ones(2, 3, requires_grad=True)
f(x).backward()
print(x.grad)
)", "graph_breaks");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "hook [torch.Size([2, 3])] [torch.Size([2, 2])]\ntensor([[1., 1., 1.],\n        [1., 1., 1.]])\n");
    auto breaks = run.eventsOf<fusescope::GraphBreakEvent>();
    ASSERT_EQ(breaks.size(), 1u) << run.logs;
    EXPECT_EQ(breaks[0].reason, "Module-level backwards hooks require compiled autograd.");
    EXPECT_EQ(breaks[0].gbId, "GB0083");
    EXPECT_EQ(breaks[0].hints, std::vector<std::string>{"Enable compiled autograd by setting torch._dynamo.config.compiled_autograd = True."});
    EXPECT_EQ(breaks[0].userStack.back().line, 11);  // return lin(x).relu().sum()
}

// As PyTorch 2.15 logs it: the registry entry, the user code from the script's top level,
// each line marked under the expression being evaluated.
TEST(GraphBreaks, LogNamesTheUserCode) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def fn(x):
    torch._dynamo.graph_break()
    return x + 1

fn(torch.ones(1))
)",
                         "graph_breaks");
    EXPECT_EQ(run.logs,
              "[0/0] [__graph_breaks] Graph break in user code at script.py:5\n"
              "Graph Break Reason: Encountered graph break when attempting to trace CALL: a function call, e.g. f(x, y):\n"
              "\n" +
              kUserBreak +
              "\n"
              "User code traceback:\n"
              "  File \"script.py\", line 8, in <module>\n"
              "    fn(torch.ones(1))\n"
              "    ~~^^^^^^^^^^^^^^^\n"
              "  File \"script.py\", line 5, in fn\n"
              "    torch._dynamo.graph_break()\n"
              "    ~~~~~~~~~~~~~~~~~~~~~~~~~^^\n"
              "\n");
}

// A frame is named by its code, as CPython's: functools.wraps renames the wrapper's __name__
// ("g"), not its frames ("wrapper"), as PyTorch 2.15 logs this program.
TEST(GraphBreaks, AWrappedFunctionsFrameIsNamedByItsCode) {
    auto run = runScript(R"(import functools
import torch

def deco(func):
    @functools.wraps(func)
    def wrapper(x):
        torch._dynamo.graph_break()
        return func(x)
    return wrapper

@deco
def g(x):
    return x + 1

@torch.compile(backend="eager")
def fn(x):
    return g(x) * 2

fn(torch.ones(1))
print(g.__name__, g.__qualname__)
)",
                         "graph_breaks");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "g g\n");
    EXPECT_NE(run.logs.find("  File \"script.py\", line 7, in wrapper\n    torch._dynamo.graph_break()\n"), std::string::npos)
        << run.logs;
}

// Reading .grad_fn of a graph value: PyTorch 2.15 gives up on the function (GB0104), worded
// as it logs it, the marker under the attribute read; .is_leaf it traces on.
TEST(GraphBreaks, GradFnOfAGraphValueIsPyTorchsUngracefulBreak) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def f(x):
    y = x * 2
    g = y.grad_fn
    return y + 1, g

print(f(torch.ones(2, requires_grad=True))[0])
)",
                         "graph_breaks");
    EXPECT_EQ(run.out, "tensor([3., 3.], grad_fn=<AddBackward0>)\n");
    EXPECT_EQ(run.logs,
              "[0/0] [__graph_breaks] Graph break in user code at script.py:6\n"
              "Graph Break Reason: Failed to handle graph break gracefully. Skipping the function and falling back to eager. "
              "Graph break encountered:\n"
              "\n"
              "Tensor with grad_fn()\n"
              "  Explanation: Dynamo does not support tracing tensors with a grad_fn directly.\n"
              "\n"
              "\n"
              "  Developer debug context: tp_getattro_impl TensorVariable() grad_fn\n"
              "\n"
              " For more details about this graph break, please visit: "
              "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0104.html\n"
              "\n"
              "User code traceback:\n"
              "  File \"script.py\", line 9, in <module>\n"
              "    print(f(torch.ones(2, requires_grad=True))[0])\n"
              "          ~^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
              "  File \"script.py\", line 6, in f\n"
              "    g = y.grad_fn\n"
              "        ^^^^^^^^^\n"
              "\n");
}

// A graph value's requires_grad and is_leaf as eager's (and PyTorch 2.15's, printed by it for
// this program), without a graph break: until they were, y.requires_grad said False.
TEST(GraphBreaks, GraphValuesAnswerRequiresGradAndIsLeafWithoutABreak) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def h(x):
    y = x * 2
    with torch.no_grad():
        z = x + 1
    return y + 1, y.is_leaf, y.requires_grad, z.is_leaf, x.is_leaf, y.detach().requires_grad, (y > 1).requires_grad

print(h(torch.ones(2, requires_grad=True)))
print(h(torch.ones(2)))
)",
                         "graph_breaks");
    EXPECT_EQ(run.error, "");
    EXPECT_EQ(run.out,
              "(tensor([3., 3.], grad_fn=<AddBackward0>), False, True, True, True, False, False)\n"
              "(tensor([3., 3.]), True, False, True, True, False, False)\n");
    EXPECT_EQ(run.logs, "");
}

TEST(GraphBreaks, BreakInsideAnInlinedCallKeepsTheWholeUserStack) {
    auto run = runScript(R"(import torch

def helper(x):
    print("in helper")
    return x * 2

@torch.compile(backend="eager")
def fn(x):
    y = x + 1
    return helper(y)

print(fn(torch.ones(2)))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "in helper\ntensor([4., 4.])\n");
    // As Dynamo: fn's trace breaks inside helper, so fn's graph ends at the call, which runs
    // eagerly; helper is then a frame of its own (1/0), breaking at its print.
    auto breaks = run.eventsOf<fusescope::GraphBreakEvent>();
    ASSERT_EQ(breaks.size(), 2u);
    EXPECT_EQ(breaks[0].compileId, "0/0");
    ASSERT_EQ(breaks[0].userStack.size(), 2u);
    EXPECT_EQ(breaks[0].userStack[0].str(), "File \"script.py\", line 10, in fn");
    EXPECT_EQ(breaks[0].userStack[1].str(), "File \"script.py\", line 4, in helper");
    EXPECT_EQ(breaks[1].compileId, "1/0");
    ASSERT_EQ(breaks[1].userStack.size(), 1u);
    EXPECT_EQ(breaks[1].userStack[0].str(), "File \"script.py\", line 4, in helper");
}

// Tracing fn again from its start would append to `seen` twice: the trace goes on after the
// break instead, in fn's entry (one break per trace, nothing run twice). The list the trace
// changed is guarded by its length, so the second call recompiles (PyTorch, having traced
// helper as a frame of its own, recompiles that frame: a documented difference).
TEST(GraphBreaks, ABreakAfterTheCallChangedSomethingIsNotTracedAgain) {
    auto run = runScript(R"(import torch
seen = []

def helper(x):
    seen.append(1)
    print("in helper")
    return x * 2

@torch.compile(backend="eager")
def fn(x):
    return helper(x + 1)

print(fn(torch.ones(2)), len(seen))
print(fn(torch.ones(2)), len(seen))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "in helper\ntensor([4., 4.]) 1\nin helper\ntensor([4., 4.]) 2\n");
    // fn's graph ends where helper's call began (helper changed `seen`, so fn's trace cannot run
    // again: the rest of helper runs eagerly); on the next call helper is a frame of its own,
    // breaking at print. PyTorch 2.15 compiles helper's frame on the first call already (1/0):
    // here fn's resume function took frame id 1 by then.
    auto breaks = run.eventsOf<fusescope::GraphBreakEvent>();
    ASSERT_EQ(breaks.size(), 2u);
    EXPECT_EQ(breaks[0].compileId, "0/0");
    EXPECT_EQ(breaks[1].compileId, "2/0");
}

// The trace of fn starts again from inside helper's try: its finally runs once, on the run
// that counts, and a torch.no_grad() block left on the way restores grad mode.
TEST(GraphBreaks, ATracedAgainFrameRunsItsFinallyOnce) {
    auto run = runScript(R"(import torch
log = []

def helper(x):
    with torch.no_grad():
        try:
            print("in helper", torch.is_grad_enabled())
        finally:
            log.append("finally")
    return x * 2

@torch.compile(backend="eager")
def fn(x):
    y = helper(x + 1)
    return y + 1, torch.is_grad_enabled()

print(fn(torch.ones(2)), log)
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "in helper False\n(tensor([5., 5.]), True) ['finally']\n");
    EXPECT_EQ(run.eventsOf<fusescope::GraphBreakEvent>().size(), 2u);  // fn's, then helper's own frame's
}

// A break one call deep: the function's graph ends at the call, which runs eagerly with the
// function called compiled on its own; explain() counts every frame's graphs, as PyTorch 2.15
// printed for this program.
TEST(Explain, CountsTheGraphsOfTheFramesACallCompiled) {
    auto run = runScript(R"(import torch

def noisy(x):
    y = x.sin()
    print("inside noisy")
    return y.cos()

def f(x):
    a = x + 1
    b = noisy(a)
    return b * 2

print(torch._dynamo.explain(f)(torch.ones(3)))
)");
    ASSERT_EQ(run.error, "");
    const std::string printBreak =
        "    Reason: Failed to trace builtin operator\n"
        "  Explanation: Dynamo does not know how to trace builtin operator `print` with argument types ['str'] (has_kwargs False)\n"
        "  Hint: Avoid calling builtin `print` with argument types ['str']. Consider using an equivalent alternative "
        "function/method to `print`.\n"
        "  Hint: If you are attempting to call a logging function (e.g. `print`), you can try adding it to "
        "`torch._dynamo.config.reorderable_logging_functions`.\n"
        "  Hint: Please report an issue to PyTorch.\n"
        "\n"
        "  Developer debug context: builtin print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False\n"
        "\n"
        " For more details about this graph break, please visit: "
        "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html\n";
    const std::string expectedStart = "inside noisy\n"
                                      "Graph Count: 4\n"
                                      "Graph Break Count: 3\n"
                                      "Op Count: 2\n"
                                      "Break Reasons:\n"
                                      "  Break Reason 1:\n" + printBreak +
                                      "    User Stack:\n"
                                      "      <FrameSummary file script.py, line 10 in f>\n"
                                      "      <FrameSummary file script.py, line 5 in noisy>\n"
                                      "  Break Reason 2:\n" + printBreak +
                                      "    User Stack:\n"
                                      "      <FrameSummary file script.py, line 5 in noisy>\n"
                                      "Ops per Graph:\n"
                                      "  Ops 1:\n"
                                      "    <built-in function add>\n"
                                      "  Ops 2:\n"
                                      "  Ops 3:\n"
                                      "  Ops 4:\n"
                                      "    <built-in function mul>\n"
                                      "Out Guards:\n";
    EXPECT_EQ(run.out.substr(0, expectedStart.size()), expectedStart);
}

TEST(Explain, PrintsPyTorchsLayout) {
    auto run = runScript(R"(import torch

def fn(x):
    x = torch.sigmoid(x)
    torch._dynamo.graph_break()
    return x * 2 + 1

print(torch._dynamo.explain(fn)(torch.ones(4)))
)");
    ASSERT_EQ(run.error, "");
    std::string expectedStart =
        "Graph Count: 2\n"
        "Graph Break Count: 1\n"
        "Op Count: 3\n"
        "Break Reasons:\n"
        "  Break Reason 1:\n"
        "    Reason: " + kUserBreak +
        "    User Stack:\n"
        "      <FrameSummary file script.py, line 5 in fn>\n"
        "Ops per Graph:\n"
        "  Ops 1:\n"
        "    <built-in method sigmoid of type object>\n"
        "  Ops 2:\n"
        "    <built-in function mul>\n"
        "    <built-in function add>\n"
        "Out Guards:\n"
        "  Guard 1:\n"
        "    Name: \"G['torch']\"\n"
        "    Source: global\n"
        "    Create Function: ID_MATCH\n"
        "    Code: ___check_obj_id(G['torch'], ...), type=<class 'module'>\n"
        "    Created By: x = torch.sigmoid(x)\n"
        "  Guard 2:\n"
        "    Name: \"G['torch'].sigmoid\"\n"
        "    Source: global\n"
        "    Create Function: ID_MATCH\n"
        "    Code: ___check_obj_id(G['torch'].sigmoid, ...), type=<class 'builtin_function_or_method'>\n"
        "    Created By: x = torch.sigmoid(x)\n"
        "  Guard 3:\n"
        "    Name: \"L['x']\"\n"
        "    Source: local\n"
        "    Create Function: TENSOR_MATCH\n"
        "    Code: check_tensor(L['x'], torch.float32, device=cpu, requires_grad=False, size=[4], stride=[1])\n"
        "    Created By: x = torch.sigmoid(x)\n"
        "  Guard 4:\n"
        "    Name: \"G['torch']._dynamo\"\n"
        "    Source: global\n"
        "    Create Function: ID_MATCH\n"
        "    Code: ___check_obj_id(G['torch']._dynamo, ...), type=<class 'module'>\n"
        "    Created By: torch._dynamo.graph_break()\n"
        "  Guard 5:\n"
        "    Name: \"G['torch']._dynamo.graph_break.__code__\"\n"
        "    Source: global\n"
        "    Create Function: ID_MATCH\n"
        "    Code: ___check_obj_id(G['torch']._dynamo.graph_break.__code__, ...), type=<class 'code'>\n"
        "    Created By: torch._dynamo.graph_break()\n"
        // The resume function's, as PyTorch's explain() lists every frame's guards.
        "  Guard 6:\n"
        "    Name: \"L['x']\"\n"
        "    Source: local\n"
        "    Create Function: TENSOR_MATCH\n"
        "    Code: check_tensor(L['x'], torch.float32, device=cpu, requires_grad=False, size=[4], stride=[1])\n"
        "    Created By: return x * 2 + 1\n"
        "Compile Times: TorchDynamo compilation metrics:\n"
        "Function, Runtimes (s)\n"
        "_compile.compile_inner, ";
    // An object's id is its address: masked.
    const std::string out = std::regex_replace(run.out, std::regex(R"((___check_obj_id\(.*?, )[0-9]+\))"), "$1...)");
    EXPECT_EQ(out.substr(0, expectedStart.size()), expectedStart) << run.out;
}

// As PyTorch 2.15 (its output for this program): a break right after another ended no
// graph and is not counted; a data-dependent branch's reason is Dynamo's generic_jump.
TEST(Explain, CountsEveryKindOfBreak) {
    auto run = runScript(R"(import torch

def fn(x):
    print("a")
    x = x + 1
    if x.sum() > 0:
        x = x * 2
    torch._dynamo.graph_break()
    return x / x.max().item()

e = torch._dynamo.explain(fn)(torch.ones(3))
print(e.graph_count, e.graph_break_count, e.op_count)
for r in e.break_reasons:
    print(r.reason)
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out,
              "a\n"
              "4 3 4\n"
              "generic_jump TensorVariable()\n" +
              kUserBreak +
              "Unsupported Tensor.item() call with capture_scalar_outputs=False\n"
              "  Explanation: Dynamo does not support tracing `Tensor.item()` with config.capture_scalar_outputs=False.\n"
              "  Hint: Set `torch._dynamo.config.capture_scalar_outputs = True` or `export "
              "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations in the captured graph.\n"
              "\n"
              "  Developer debug context: call_method TensorVariable() item () {}\n"
              "\n"
              " For more details about this graph break, please visit: "
              "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0124.html\n");
}

TEST(GraphBreaks, FullgraphMakesABreakAnError) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager", fullgraph=True)
def fn(x):
    y = x + 1
    print(y)
    return y

fn(torch.ones(2))
)");
    // PyTorch 2.15's Unsupported: the break's message and the user code.
    EXPECT_EQ(run.error,
              "script.py:6:5: error: Unsupported: Failed to trace builtin operator\n"
              "  Explanation: Dynamo does not know how to trace builtin operator `print` with argument types ['Tensor'] "
              "(has_kwargs False)\n"
              "  Hint: Avoid calling builtin `print` with argument types ['Tensor']. Consider using an equivalent "
              "alternative function/method to `print`.\n"
              "  Hint: If you are attempting to call a logging function (e.g. `print`), you can try adding it to "
              "`torch._dynamo.config.reorderable_logging_functions`.\n"
              "  Hint: Please report an issue to PyTorch.\n"
              "\n"
              "  Developer debug context: builtin print [<class 'torch._dynamo.variables.tensor.TensorVariable'>] False\n"
              "\n"
              " For more details about this graph break, please visit: "
              "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html\n"
              "\n"
              "from user code:\n"
              "   File \"script.py\", line 6, in fn\n"
              "    print(y)\n"
              "    ~~~~~^^^\n"
              "\n"
              "Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this especially if you're reporting a bug to "
              "PyTorch). For even more developer context, set TORCH_LOGS=\"+dynamo\"\n");
    EXPECT_EQ(run.out, "");
}

// A tensor's data read into Python (item(), a branch, float()) breaks the graph whatever
// the tensor is: read from an input or a global it is read again on every call, never baked
// into the graph as the first call's value (as PyTorch 2.15 prints for this program).
TEST(GraphBreaks, DataReadFromAnInputOrAGlobalIsReadOnEveryCall) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def scaled(x, y):
    return y * x.item()

@torch.compile(backend="eager")
def branch(flag, y):
    if flag:
        return y + 1
    return y - 1

w = torch.tensor(2.0)

@torch.compile(backend="eager")
def by_global(y):
    return y * float(w)

print(scaled(torch.tensor(2.0), torch.ones(2)), scaled(torch.tensor(3.0), torch.ones(2)))
print(branch(torch.tensor(True), torch.ones(2)), branch(torch.tensor(False), torch.ones(2)))
print(by_global(torch.ones(2)))
w.fill_(5.0)
print(by_global(torch.ones(2)))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out,
              "tensor([2., 2.]) tensor([3., 3.])\n"
              "tensor([2., 2.]) tensor([0., 0.])\n"
              "tensor([2., 2.])\n"
              "tensor([5., 5.])\n");
}

// Dynamo skips a frame that returns with no op in its graph ("no content in function call"):
// the resume function after a last print gets no cache entry, so no guards and no recompile
// when the int it reads changes, as in PyTorch 2.15 (one GUARDS, the frame's own).
TEST(GraphBreaks, AResumeFunctionWithNoOpIsSkipped) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def f(x, n):
    y = x * 2
    print("hi")
    return y, n + 1

print(f(torch.ones(2), 1))
print(f(torch.ones(2), 2))
)", "recompiles,guards");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "hi\n(tensor([2., 2.]), 2)\nhi\n(tensor([2., 2.]), 3)\n");
    EXPECT_EQ(countOccurrences(run.logs, "GUARDS:"), 1) << run.logs;
    EXPECT_EQ(run.logs.find("Recompiling"), std::string::npos) << run.logs;
    EXPECT_EQ(run.compiles, 1);
}

// A break inside a try block or an exception handler of the compiled frame is not resumed
// from: Dynamo skips the frame, which runs eagerly, so the handler prints the eager error (real
// PyTorch 2.15's output). Caught in the trace, an op's error is the fake-tensor run's.
TEST(GraphBreaks, ABreakInATryBlockSkipsTheFrame) {
    auto run = runScript(R"(import torch

def g(x, y):
    try:
        return x + y
    except RuntimeError as e:
        print("caught:", type(e).__name__, e)
        return x

def h(x, w):
    try:
        return x @ w
    except RuntimeError as e:
        return x.sum(), str(e)

print(torch.compile(g, backend="eager")(torch.ones(2, 3), torch.ones(4, 3)))
print(torch.compile(h, backend="eager")(torch.ones(2, 3), torch.ones(4, 5))[1])
)", "graph_breaks");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "caught: RuntimeError The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0\n"
                       "tensor([[1., 1., 1.],\n        [1., 1., 1.]])\n"
                       "Dynamo failed to run FX node with fake tensors: call_function <built-in function matmul>(*(FakeTensor(..., "
                       "size=(2, 3)), FakeTensor(..., size=(4, 5))), **{}): got RuntimeError('a and b must have same reduction dim, "
                       "but got [2, 3] X [4, 5].')\n");
    EXPECT_NE(run.logs.find("Graph Break Reason: Failed to handle graph break gracefully. Skipping the function and falling back "
                            "to eager. Graph break encountered:\n\nFailed to trace builtin operator"),
              std::string::npos)
        << run.logs;
}
