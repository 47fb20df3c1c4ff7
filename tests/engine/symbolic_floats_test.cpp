// SymFloats: a float the compiled code reads is dynamic once a recompile sees another value
// (capture/traced_floats.cpp), and a compiling backend reads it as an f64[] kernel input
// (capture/tensorified_floats.cpp). tests/scripts/reference/compiled/float_inputs.py has the
// guards and recompiles checked against real PyTorch 2.15; these check the compiled graphs.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <tuple>

#include "test_support.h"

using fusescope::test::runScript;

namespace {

// Under Inductor: the float is a graph input its kernels read (no graph run eagerly), its
// arithmetic (a number on either side, negation) computed as PyTorch computes a Python float, results
// as real PyTorch printed them and within a float's rounding of eager's.
TEST(SymbolicFloats, ACompiledGraphReadsTheFloatAsAKernelInput) {
    auto run = runScript(R"(import torch

def f(x, d, i, s):
    return x * s, d * s, i * s, (2.0 - s) * x + x / (1.0 / s), x * (s * s - s / 4), x * -s

compiled = torch.compile(f)
for s in [1.5, 0.3, -2.75]:
    args = (torch.arange(3.0) / 7, torch.arange(3.0, dtype=torch.float64) / 3, torch.arange(3), s)
    for got, want in zip(compiled(*args), f(*args)):
        print(got, torch.allclose(got, want, rtol=1e-6, atol=0))
)",
                         "inductor,recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out,  // real PyTorch's values
              "tensor([0.0000, 0.2143, 0.4286]) True\n"
              "tensor([0.0000, 0.5000, 1.0000], dtype=torch.float64) True\n"
              "tensor([0.0000, 1.5000, 3.0000]) True\n"
              "tensor([0.0000, 0.2857, 0.5714]) True\n"
              "tensor([0.0000, 0.2679, 0.5357]) True\n"
              "tensor([-0.0000, -0.2143, -0.4286]) True\n"
              "tensor([0.0000, 0.0429, 0.0857]) True\n"
              "tensor([0.0000, 0.1000, 0.2000], dtype=torch.float64) True\n"
              "tensor([0.0000, 0.3000, 0.6000]) True\n"
              "tensor([0.0000, 0.2857, 0.5714]) True\n"
              "tensor([0.0000, 0.0021, 0.0043]) True\n"
              "tensor([-0.0000, -0.0429, -0.0857]) True\n"
              "tensor([-0.0000, -0.3929, -0.7857]) True\n"
              "tensor([-0.0000, -0.9167, -1.8333], dtype=torch.float64) True\n"
              "tensor([-0.0000, -2.7500, -5.5000]) True\n"
              "tensor([0.0000, 0.2857, 0.5714]) True\n"
              "tensor([0.0000, 1.1786, 2.3571]) True\n"
              "tensor([0.0000, 0.3929, 0.7857]) True\n");
    EXPECT_EQ(run.compiles, 2);  // the third value runs the second compile's graph
    EXPECT_EQ(run.logs.find("running the graph eagerly"), std::string::npos) << run.logs;
    auto graphs = run.eventsOf<fusescope::GraphCapturedEvent>();
    ASSERT_EQ(graphs.size(), 2u);
    EXPECT_NE(graphs[1].readable.find("item: \"Sym(zf72)\" = l_s_.item()\n"), std::string::npos) << graphs[1].readable;
}

// A float a library op of Fusescope's branches on (lerp's weight picks its formula) is read as
// the float it is: guarded by its value, so each value compiles (PyTorch's lerp kernel reads it
// in the graph; docs/recompiles.md).
TEST(SymbolicFloats, AFloatReadAsAPlainFloatIsGuardedByItsValue) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def f(a, b, w):
    return torch.lerp(a, b, w)

for w in [0.25, 0.5, 0.75]:
    print(f(torch.zeros(2), torch.ones(2), w))
)",
                         "recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([0.2500, 0.2500])\ntensor([0.5000, 0.5000])\ntensor([0.7500, 0.7500])\n");
    EXPECT_EQ(run.compiles, 3);
    EXPECT_NE(run.logs.find("- 0/1: w == 0.5 "), std::string::npos) << run.logs;
}

}  // namespace

namespace {

// F.dropout2d runs whole on fake tensors in PyTorch: a float p that changed between calls
// reaches _VF.feature_dropout, whose argument parser reads it as a number, so it is guarded
// equal where that call is (PyTorch 2.15's torch/nn/functional.py:1629), not made an input.
// Under a backend through AOT Autograd, the tensorify pass restarts that trace, which draws
// two more numbers from Dynamo's counter (the builtins dict's).
TEST(SymbolicFloats, AFloatAnInGraphFunctionReadsIsGuardedWhereItsOpReadsIt) {
    const std::string script = R"(import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout2d(0.0)

    def forward(self, x):
        return self.drop(x) * len(x)

block = Block()
compiled = torch.compile(block, backend=BACKEND)
x = torch.ones(1, 2, 3)
for p in [0.0, 1.0, 0.0, 1.0]:
    block.drop.p = p
    print(compiled(x).sum().item())
)";
    for (const auto& [backend, builtins] : {std::pair{"\"eager\"", "__builtins_dict___2"}, {"\"aot_eager\"", "__builtins_dict___4"}}) {
        std::string text = script;
        text.replace(text.find("BACKEND"), 7, backend);
        auto run = runScript(text, "guards");
        ASSERT_EQ(run.error, "") << backend;
        EXPECT_EQ(run.out, "6.0\n0.0\n6.0\n0.0\n") << backend;
        EXPECT_EQ(run.compiles, 2) << backend;
        EXPECT_NE(run.logs.find("+- LAMBDA_GUARD: L['self']._modules['drop'].p == 1.0  # return F.dropout2d(input, self.p, "
                                "self.training, self.inplace)  # torch/nn/modules/dropout.py:176 in forward (nn/functional.py:1629 "
                                "in dropout2d)\n"),
                  std::string::npos) << backend << run.logs;
        EXPECT_NE(run.logs.find("source=G['" + std::string(builtins) + "']['len']"), std::string::npos) << backend << run.logs;
        EXPECT_EQ(run.logs.find("p >= 0.0"), std::string::npos) << backend << run.logs;  // implied by the equality
    }
}

// dropout1d and dropout3d (an unbatched input made a batch of one) name their own lines of
// PyTorch 2.15's functional.py, as real PyTorch printed them for this script.
TEST(SymbolicFloats, ChannelDropoutsNameTheirOwnLineOfPyTorch) {
    for (const auto& [dims, shape, line] : {std::tuple{"1d", "1, 2, 3", "dropout.py:121 in forward (nn/functional.py:1566 in dropout1d)"},
                                            {"3d", "1, 2, 3, 1", "dropout.py:224 in forward (nn/functional.py:1679 in dropout3d)"}}) {
        auto run = runScript(fmt::format(R"(import torch

class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = torch.nn.Dropout{}(0.0)

    def forward(self, x):
        return self.drop(x) * 2

block = Block()
compiled = torch.compile(block, backend="eager")
for p in [0.0, 1.0]:
    block.drop.p = p
    print(compiled(torch.ones({})).sum().item())
)", dims, shape),
                             "guards");
        ASSERT_EQ(run.error, "") << dims;
        EXPECT_EQ(run.out, "12.0\n0.0\n") << dims;
        EXPECT_NE(run.logs.find(fmt::format("p == 1.0  # return F.dropout{}(input, self.p, self.training, self.inplace)  # "
                                            "torch/nn/modules/{}\n", dims, line)),
                  std::string::npos) << dims << run.logs;
    }
}

}  // namespace
