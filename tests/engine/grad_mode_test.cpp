// Grad mode and leaf tensors as PyTorch shows them (checked against PyTorch 2.x): results of
// ops on tensors requiring grad are non-leaves printed with their backward node, no_grad and
// set_grad_enabled switch that off, a compiled graph's outputs carry CompiledFunctionBackward,
// and an in-place op on a leaf requiring grad is refused.

#include <gtest/gtest.h>

#include "test_support.h"

namespace fusescope::test {
namespace {

TEST(GradMode, ResultsOfTensorsRequiringGradAreNonLeavesWithABackwardNode) {
    ScriptRun run = runScript(R"(import torch
x = torch.ones(3, requires_grad=True)
y = x * 2
print(y.is_leaf, y.requires_grad, x.is_leaf)
print(y)
print(y.sum(), y.view(3, 1).t())
with torch.no_grad():
    z = x + 1
print(z.requires_grad, z.is_leaf, torch.is_grad_enabled())
print(x.detach().requires_grad, (x > 0).requires_grad)
torch.set_grad_enabled(False)
print((x * 3).requires_grad)
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
@torch.compile(backend="eager")
def g(a):
    return (a * 2).sin()
print(g(x))
@torch.compile(backend="inductor")
def h(a):
    return (a * 2).sin()
print(h(x), h(torch.ones(3)))
x.add_(1)
)");
    EXPECT_EQ(run.out,
              "False True True\n"
              "tensor([2., 2., 2.], grad_fn=<MulBackward0>)\n"
              "tensor(6., grad_fn=<SumBackward0>) tensor([[2., 2., 2.]], grad_fn=<TBackward0>)\n"
              "False True True\n"
              "False False\n"
              "False\n"
              "False\n"
              "True\n"
              "tensor([0.9093, 0.9093, 0.9093], grad_fn=<SinBackward0>)\n"
              "tensor([0.9093, 0.9093, 0.9093], grad_fn=<CompiledFunctionBackward>) tensor([0.9093, 0.9093, 0.9093])\n");
    EXPECT_EQ(run.error, "script.py:25:1: error: RuntimeError: a leaf Variable that requires grad is being used in an "
                         "in-place operation.");
}

TEST(GradMode, OnlyLeavesMayChangeRequiresGrad) {
    ScriptRun run = runScript(R"(import torch
y = torch.ones(2, requires_grad=True) * 2
y.requires_grad = False
)");
    EXPECT_EQ(run.error, "script.py:3:1: error: RuntimeError: you can only change requires_grad flags of leaf variables. If "
                         "you want to use a computed variable in a subgraph that doesn't require differentiation use "
                         "var_no_grad = var.detach().");
}

}  // namespace
}  // namespace fusescope::test
