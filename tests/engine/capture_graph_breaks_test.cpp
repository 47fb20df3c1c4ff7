// Graph breaks: each kind gives the expected graphs, break count and reason, and the
// values stay right across the break.
#include <gtest/gtest.h>

#include "test_support.h"

using fusescope::test::runScript;

namespace {

struct BreakCase {
    const char* body;    // the compiled function's body
    int graphs;
    const char* reason;  // of the single break
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
    ASSERT_FALSE(breaks[0].userStack.empty());
    EXPECT_EQ(breaks[0].userStack.back().function, "fn");
    EXPECT_EQ(static_cast<int>(run.eventsOf<fusescope::GraphCapturedEvent>().size()), c.graphs) << run.logs;
}

}  // namespace

TEST(GraphBreaks, Print) {
    expectOneBreak({"    y = x * 2\n    print('mid', y)\n    return y + 1\n", 2,
                    "print() called: printing needs real values",
                    "mid tensor([ 2., -4.,  8.])\ntensor([ 3., -3.,  9.])\n"});
}

TEST(GraphBreaks, DataDependentBranch) {
    expectOneBreak({"    if x.sum() > 0:\n        return x * 2\n    return x * 3\n", 2,
                    "data-dependent branching: the condition depends on a tensor value",
                    "tensor([ 2., -4.,  8.])\n"});
}

TEST(GraphBreaks, ExplicitGraphBreak) {
    expectOneBreak({"    x = x * 2\n    torch._dynamo.graph_break()\n    return x * 3\n", 2,
                    "torch._dynamo.graph_break() called", "tensor([  6., -12.,  24.])\n"});
}

TEST(GraphBreaks, UnsupportedCall) {
    expectOneBreak({"    n = x.abs().max().item()\n    return x / n\n", 2,
                    "unsupported call Tensor.item(): it turns a tensor into a Python number",
                    "tensor([ 0.2500, -0.5000,  1.0000])\n"});
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
    EXPECT_EQ(breaks[0].reason, "torch.autograd.Function.apply: Fusescope does not trace custom autograd Functions into the "
                                "graph yet; it runs eagerly");
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
    EXPECT_EQ(breaks[0].userStack.back().line, 11);  // return lin(x).relu().sum()
}

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
              "Reason: torch._dynamo.graph_break() called\n"
              "User code traceback:\n"
              "  File \"script.py\", line 5, in fn\n"
              "    torch._dynamo.graph_break()\n");
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
    auto breaks = run.eventsOf<fusescope::GraphBreakEvent>();
    ASSERT_EQ(breaks.size(), 1u);
    ASSERT_EQ(breaks[0].userStack.size(), 2u);
    EXPECT_EQ(breaks[0].userStack[0].str(), "File \"script.py\", line 10, in fn");
    EXPECT_EQ(breaks[0].userStack[1].str(), "File \"script.py\", line 4, in helper");
}

TEST(Explain, PrintsTheSeedLayout) {
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
        "    Reason: torch._dynamo.graph_break() called\n"
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
        "    Name: \"L['x']\"\n"
        "    Source: local\n"
        "    Create Function: TENSOR_MATCH\n"
        "    Code: check_tensor(L['x'], torch.float32, device=cpu, requires_grad=False, size=[4], stride=[1])\n"
        "    Created By: x = torch.sigmoid(x)\n"
        "Compile Times: TorchDynamo compilation metrics:\n"
        "Function                Runtimes (s)\n"
        "----------------------  --------------\n"
        "_compile.compile_inner  ";
    EXPECT_EQ(run.out.substr(0, expectedStart.size()), expectedStart) << run.out;
}

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
              "4 4 6\n"
              "print() called: printing needs real values\n"
              "data-dependent branching: the condition depends on a tensor value\n"
              "torch._dynamo.graph_break() called\n"
              "unsupported call Tensor.item(): it turns a tensor into a Python number\n");
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
    EXPECT_EQ(run.error, "script.py:6:5: error: Unsupported: fullgraph=True, but the function breaks the graph: "
                         "print() called: printing needs real values");
    EXPECT_EQ(run.out, "");
}
