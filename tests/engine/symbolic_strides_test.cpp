// The strides of an input with dynamic sizes (capture/symbolic_strides.h), as PyTorch 2.15's
// ShapeEnv makes them; tests/scripts/reference/compiled/sliced_dynamic_inputs.py has real
// PyTorch's guards and recompiles for the same layouts.
#include <gtest/gtest.h>

#include "capture/symbolic_strides.h"
#include "test_support.h"

using fusescope::contiguityGuards;
using fusescope::strideProducts;
using fusescope::SymbolicStride;
using fusescope::symbolicStrides;
using fusescope::TensorProduct;
using fusescope::test::runScript;

namespace {

using Kind = SymbolicStride::Kind;

std::vector<Kind> kinds(const std::vector<SymbolicStride>& forms) {
    std::vector<Kind> out;
    for (const auto& f : forms) out.push_back(f.kind);
    return out;
}

}  // namespace

TEST(SymbolicStrides, ContiguousStridesFollowTheSizes) {
    // [2, s1, 4]: the last is 1, the middle 4 (a static size's product), the first s1*4.
    auto forms = symbolicStrides({2, 3, 4}, {12, 4, 1}, {false, true, false});
    EXPECT_EQ(kinds(forms), (std::vector<Kind>{Kind::Product, Kind::Number, Kind::Number}));
    EXPECT_EQ(forms[0].of, 1);
    auto products = strideProducts({2, 3, 4}, {12, 4, 1}, forms, {"", "s1", ""}, {"", "", ""});
    EXPECT_EQ(products[0].constant, 4);
    ASSERT_EQ(products[0].factors.size(), 1u);
    EXPECT_EQ(products[0].factors[0].symbol, "s1");
    EXPECT_TRUE(contiguityGuards({2, 3, 4}, {"", "s1", ""}, products).empty());
}

TEST(SymbolicStrides, NoDynamicSizeLeavesEveryStrideANumber) {
    EXPECT_EQ(kinds(symbolicStrides({2, 3}, {9, 1}, {false, false})), (std::vector<Kind>{Kind::Number, Kind::Number}));
}

TEST(SymbolicStrides, ASliceRowStrideIsASymbolGuardedNotContiguous) {
    // A [2, s1] slice of a [2, 9]: its row stride 9 is no size's product: a symbol of its own,
    // and the contiguity check guards it != s1 (9 != 3 now).
    auto forms = symbolicStrides({2, 3}, {9, 1}, {false, true});
    EXPECT_EQ(kinds(forms), (std::vector<Kind>{Kind::Fresh, Kind::Number}));
    auto products = strideProducts({2, 3}, {9, 1}, forms, {"", "s1"}, {"s2", ""});
    auto guards = contiguityGuards({2, 3}, {"", "s1"}, products);
    ASSERT_EQ(guards.size(), 1u);
    EXPECT_EQ(guards[0].dim, 0);
    EXPECT_FALSE(guards[0].equal);
    ASSERT_EQ(guards[0].expected.factors.size(), 1u);
    EXPECT_EQ(guards[0].expected.factors[0].symbol, "s1");
}

TEST(SymbolicStrides, AStepSliceHasAStrideSymbolTheRowStrideFollows) {
    // [2, s1] with strides (6, 2): the column stride is a symbol; the row stride is s1 times it.
    // It differs from 1 for every value the symbol may take (>= 2): no contiguity guard.
    auto forms = symbolicStrides({2, 3}, {6, 2}, {false, true});
    EXPECT_EQ(kinds(forms), (std::vector<Kind>{Kind::Product, Kind::Fresh}));
    auto products = strideProducts({2, 3}, {6, 2}, forms, {"", "s1"}, {"", "s3"});
    EXPECT_EQ(products[0].factors.size(), 2u);
    EXPECT_EQ(products[0].value(), 6);
    EXPECT_TRUE(contiguityGuards({2, 3}, {"", "s1"}, products).empty());
}

TEST(SymbolicStrides, AnEmptyDimDoesNotEndTheContiguityCheck) {
    // [s0, 0, s2], contiguous: the stride over the empty dim steps as over one.
    auto forms = symbolicStrides({2, 0, 3}, {3, 3, 1}, {true, false, true});
    auto products = strideProducts({2, 0, 3}, {3, 3, 1}, forms, {"s0", "", "s2"}, {"", "", ""});
    EXPECT_TRUE(contiguityGuards({2, 0, 3}, {"s0", "", "s2"}, products).empty());
}

// After the size change the slice's row stride is read from each call's input: other widths
// and offsets of the same wide tensor reuse the graph and compute what eager computes.
TEST(SymbolicStrides, SlicesOfOtherWidthsReuseTheDynamicGraph) {
    auto run = runScript(R"(import torch

@torch.compile(backend="inductor")
def f(x):
    return x * 2 + 1

wide = torch.arange(27.0).reshape(3, 9)
f(wide[:, :5].clone())
for t in [wide[:, :3], wide[:, 2:7], wide[1:, 4:6], wide[:, 1:9]]:
    print(torch.equal(f(t), t * 2 + 1))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\nTrue\nTrue\nTrue\n");
    EXPECT_EQ(run.compiles, 3);  // [3, 5]; [3, s] sliced; [2, s] (a static size changed)
}

TEST(SymbolicStrides, DimsFoundEqualRenameTheInputsStridesToo) {
    // a * d and a @ d.T make a's and d's dims one symbol (set_replacement s99 = s74): the
    // inputs' contiguous strides (s69*s99) once kept the replaced names, which the compiled
    // code did not declare (a C++ compile error, the graph run eagerly).
    auto run = runScript(R"(import torch
@torch.compile
def f(a, d):
    return (d * a).sum(-1, keepdim=True) + a, a @ d.transpose(1, 2)
for shape in [(1, 8, 8), (2, 5, 5), (3, 4, 4)]:
    n = shape[0] * shape[1] * shape[2]
    a = (torch.arange(n).reshape(shape) * 0.31).sin()
    d = (torch.arange(n).reshape(shape) * 0.37).sin()
    print(f(a, d)[0].sum())
)");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "tensor(-35.9830)\ntensor(10.4131)\ntensor(12.2611)\n");  // real PyTorch 2.15's
    EXPECT_EQ(run.compiles, 2);  // [1, 8, 8], then every size dynamic
    EXPECT_EQ(run.logs.find("CppCompileError"), std::string::npos) << run.logs;
}
