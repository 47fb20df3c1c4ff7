// Reductions: values, dims/keepdim, dtype rules, overloads, non-contiguous inputs, meta.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/error.h"
#include "ops/op_registry.h"
#include "ops_test_support.h"

using namespace fusescope;
using namespace fusescope::test;


TEST(Reduction, SumMeanProd) {
    Tensor a = floats({1, 2, 3, 4, 5, 6}, {2, 3});
    Tensor s = T("sum", {a});
    EXPECT_EQ(s.dim(), 0);
    EXPECT_EQ(s.item(), 21);
    expectNear(T("sum", {a, IValue(0)}), {5, 7, 9});
    expectNear(T("sum", {a, IValue(-1)}), {6, 15});
    Tensor k = T("sum", {a, IValue(1), IValue(true)});
    EXPECT_EQ(k.sizes(), (Shape{2, 1}));
    expectNear(T("sum", {a, IValue::intList({0, 1})}), {21});
    expectNear(T("mean", {a, IValue(0)}), {2.5, 3.5, 4.5});
    expectNear(T("prod", {a, IValue(1)}), {6, 120});
    EXPECT_EQ(T("sum", {longs({1, 2})}).dtype(), DType::Int64);
    EXPECT_EQ(T("sum", {longs({1, 2}, DType::Int32)}).dtype(), DType::Int64);
    Tensor mask = T("gt", {a, IValue(2)});
    Tensor count = T("sum", {mask});
    EXPECT_EQ(count.dtype(), DType::Int64);
    EXPECT_EQ(count.item(), 4);
    EXPECT_EQ(T("sum", {a}, {{"dtype", IValue(DType::Float64)}}).dtype(), DType::Float64);
    EXPECT_EQ(errorOf([&] { T("mean", {longs({1, 2})}); }),
              "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long");
    EXPECT_EQ(errorOf([&] { T("sum", {a, IValue::intList({0, 0})}); }), "dim 0 appears multiple times in the list of dims");
    EXPECT_EQ(errorOf([&] { T("sum", {a, IValue(2)}); }), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

// A fuzz find: int64 sums, products and prefix sums overflowed (undefined behaviour); they
// wrap around as PyTorch's do (the values are what PyTorch 2.15 prints).
TEST(Reduction, IntegerSumsAndProductsWrapAsPyTorch) {
    Tensor big = T("reshape", {longs({3037000500, 3037000500, 7, -9223372036854775807, -2, 1}), IValue::intList({2, 3})});
    auto ints = [](const Tensor& t) {
        std::vector<int64_t> out;
        for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.readInt64(i));
        return out;
    };
    EXPECT_EQ(ints(T("prod", {big, IValue(1)})), (std::vector<int64_t>{-9223372035836456464, -2}));
    EXPECT_EQ(ints(T("prod", {big})), (std::vector<int64_t>{-2036638688}));
    EXPECT_EQ(ints(T("sum", {big, IValue(0)})), (std::vector<int64_t>{-9223372033817775307, 3037000498, 8}));
    EXPECT_EQ(ints(T("cumsum", {big, IValue(1)})), (std::vector<int64_t>{3037000500, 6074001000, 6074001007, -9223372036854775807,
                                                                         9223372036854775807, std::numeric_limits<int64_t>::min()}));
}

TEST(Reduction, NonContiguous) {
    Tensor a = floats({1, 2, 3, 4, 5, 6}, {2, 3});
    Tensor at = T("t", {a});
    expectNear(T("sum", {at, IValue(1)}), {5, 7, 9});
    Tensor e = T("expand", {floats({1, 2, 3}), IValue::intList({4, 3})});
    expectNear(T("sum", {e, IValue(0)}), {4, 8, 12});
    Tensor stepped = T("slice", {a, IValue(1), IValue(0), IValue(3), IValue(2)});  // [[1,3],[4,6]]
    expectNear(T("amax", {stepped, IValue(1)}), {3, 6});
}

TEST(Reduction, AmaxAminArgmax) {
    Tensor a = floats({3, 7, 7, 1, 9, 2}, {2, 3});
    expectNear(T("amax", {a}), {9});
    expectNear(T("amin", {a, IValue(1)}), {3, 1});
    expectNear(T("argmax", {a}), {4});
    EXPECT_EQ(T("argmax", {a}).dtype(), DType::Int64);
    expectNear(T("argmax", {a, IValue(1)}), {1, 1});  // first of the tie
    expectNear(T("argmin", {a, IValue(0)}), {1, 0, 1});
    Tensor k = T("argmax", {a, IValue(1), IValue(true)});
    EXPECT_EQ(k.sizes(), (Shape{2, 1}));
    expectNear(T("amax", {floats({1, NAN, 3})}), {NAN});
    EXPECT_EQ(T("amax", {longs({1, 5})}).dtype(), DType::Int64);
}

TEST(Reduction, MaxMinOverloads) {
    Tensor a = floats({3, 7, 1, 9}, {2, 2});
    Tensor full = T("max", {a});
    EXPECT_EQ(full.dim(), 0);
    EXPECT_EQ(full.item(), 9);
    IValue byDim = call("max", {a, IValue(1)});
    ASSERT_TRUE(byDim.isSequence());
    ASSERT_EQ(byDim.toSequence()->items.size(), 2u);
    expectNear(byDim.toSequence()->items[0].toTensor(), {7, 9});
    Tensor idx = byDim.toSequence()->items[1].toTensor();
    EXPECT_EQ(idx.dtype(), DType::Int64);
    expectNear(idx, {1, 1});
    IValue kd = call("min", {a}, {{"dim", IValue(0)}, {"keepdim", IValue(true)}});
    expectNear(kd.toSequence()->items[0].toTensor(), {1, 7});
    EXPECT_EQ(kd.toSequence()->items[0].toTensor().sizes(), (Shape{1, 2}));
    expectNear(T("max", {a, floats({5, 5})}), {5, 7, 5, 9});
    expectNear(T("min", {a, floats({2})}), {2, 2, 1, 2});
    IValue metaDim = call("max", {toMeta(a), IValue(0)});
    EXPECT_TRUE(metaDim.toSequence()->items[1].toTensor().isMeta());
    EXPECT_EQ(metaDim.toSequence()->items[1].toTensor().dtype(), DType::Int64);
    EXPECT_NE(errorOf([&] { T("max", {T("zeros", {IValue::intList({0})})}); }), "no error");
}

TEST(Reduction, VarStd) {
    Tensor a = floats({1, 2, 3, 4});
    expectNear(T("var", {a}), {1.6666667});
    expectNear(T("var", {a}, {{"unbiased", IValue(false)}}), {1.25});
    expectNear(T("var", {a, IValue(false)}), {1.25});
    expectNear(T("var", {a}, {{"correction", IValue(0)}}), {1.25});
    expectNear(T("std", {a}), {std::sqrt(5.0 / 3.0)});
    Tensor m = floats({1, 2, 3, 5, 7, 9}, {2, 3});
    expectNear(T("var", {m, IValue(1)}), {1, 4});
    expectNear(T("var", {m, IValue(1), IValue(true), IValue(true)}), {1, 4});
    EXPECT_EQ(T("var", {m, IValue(1)}, {{"keepdim", IValue(true)}}).sizes(), (Shape{2, 1}));
    EXPECT_EQ(errorOf([&] { T("var", {longs({1, 2})}); }), "std and var only support floating point and complex dtypes");
}

TEST(Reduction, AllAny) {
    Tensor a = floats({1, 0, 2, 3}, {2, 2});
    expectNear(T("all", {a}), {0});
    expectNear(T("any", {a, IValue(1)}), {1, 1});
    expectNear(T("all", {a, IValue(0)}), {1, 0});
}

TEST(Reduction, MetaInferenceMatchesKernel) {
    Tensor a = floats({1, 2, 3, 4, 5, 6}, {2, 3});
    expectInferMatches("sum", {a, IValue(1), IValue(true)}, {toMeta(a), IValue(1), IValue(true)});
    expectInferMatches("mean", {a}, {toMeta(a)});
    expectInferMatches("argmax", {a, IValue(0)}, {toMeta(a), IValue(0)});
    expectInferMatches("sum", {longs({1})}, {toMeta(longs({1}))});
    expectInferMatches("var", {a, IValue(0)}, {toMeta(a), IValue(0)});
}

// Float sums follow PyTorch's cascade order bit for bit (values checked against PyTorch 2.15).
TEST(ReductionOps, FloatSumMatchesPyTorchCascadeOrder) {
    Tensor tenth = floats(std::vector<double>(10, 0.1));
    EXPECT_EQ(T("sum", {tenth}).readDouble(0), 1.0000001192092896);  // not 1.0: float adds, not double
    Tensor r = T("div", {T("arange", {IValue(1000.0)}), IValue(int64_t{7})});
    EXPECT_EQ(T("sum", {r}).readDouble(0), 71357.1484375);
    EXPECT_EQ(T("mean", {r}).readDouble(0), 71.35714721679688);
    // 8 contiguous floats: one 8-lane vector, lanes added in order.
    std::vector<double> v8;
    for (int i = 0; i < 8; ++i) v8.push_back(static_cast<float>(static_cast<float>((i * 7921) % 1010) / 37.0f - 13.5f));
    EXPECT_EQ(T("sum", {floats(v8)}).readDouble(0), -9.945943832397461);
    // Reductions along dims and of non-contiguous views agree with the plain values.
    Tensor m = floats({1, 2, 3, 4, 5, 6}, {2, 3});
    expectNear(T("sum", {m}, {{"dim", IValue::intList({0})}}), {5, 7, 9}, 0);
    expectNear(T("sum", {T("t", {m})}, {{"dim", IValue::intList({1})}}), {5, 7, 9}, 0);
    expectNear(T("mean", {m}, {{"dim", IValue::intList({1})}}), {2, 5}, 0);
    Tensor h = floats({1, 2, 3}, {}, DType::Float16);
    EXPECT_EQ(T("sum", {h}).dtype(), DType::Float16);
    EXPECT_EQ(T("sum", {h}).readDouble(0), 6.0);
    EXPECT_EQ(T("mean", {h}).readDouble(0), 2.0);
}
