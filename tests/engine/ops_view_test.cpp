// View ops (storage sharing, strides, errors) and joining (cat, stack).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "dispatch/dispatcher.h"
#include "ops/op_registry.h"
#include "ops_test_support.h"

using namespace fusescope;
using namespace fusescope::test;


TEST(View, SharesStorage) {
    Tensor base = T("arange", {IValue(6.0)});
    Tensor v = T("view", {base, IValue(2), IValue(-1)});
    EXPECT_EQ(v.sizes(), (Shape{2, 3}));
    EXPECT_EQ(v.storage(), base.storage());
    T("fill_", {T("select", {v, IValue(0), IValue(1)}), IValue(9)});
    expectNear(base, {0, 1, 2, 9, 9, 9});
    Tensor tr = T("transpose", {v, IValue(0), IValue(1)});
    EXPECT_EQ(tr.strides(), (Shape{1, 3}));
    EXPECT_FALSE(tr.isContiguous());
    EXPECT_EQ(errorOf([&] { T("view", {tr, IValue(6)}); }),
              "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous "
              "subspaces). Use .reshape(...) instead.");
    EXPECT_EQ(errorOf([&] { T("view", {base, IValue(3), IValue(5)}); }), "shape '[3, 5]' is invalid for input of size 6");
    Tensor r = T("reshape", {tr, IValue(6)});
    EXPECT_NE(r.storage(), base.storage());  // had to copy
    expectNear(r, {0, 9, 1, 9, 2, 9});
    Tensor r2 = T("reshape", {v, IValue::intList({3, 2})});
    EXPECT_EQ(r2.storage(), base.storage());
    Tensor c = T("contiguous", {tr});
    EXPECT_TRUE(c.isContiguous());
    EXPECT_EQ(T("contiguous", {v}).impl(), v.impl());
}

TEST(View, PermuteSqueezeExpandFlatten) {
    Tensor x = T("zeros", {IValue::intList({2, 1, 3})});
    Tensor p = T("permute", {x, IValue(2), IValue(0), IValue(1)});
    EXPECT_EQ(p.sizes(), (Shape{3, 2, 1}));
    EXPECT_EQ(p.strides(), (Shape{1, 3, 3}));
    EXPECT_EQ(T("squeeze", {x}).sizes(), (Shape{2, 3}));
    EXPECT_EQ(T("squeeze", {x, IValue(0)}).sizes(), (Shape{2, 1, 3}));
    EXPECT_EQ(T("unsqueeze", {x, IValue(-1)}).sizes(), (Shape{2, 1, 3, 1}));
    Tensor e = T("expand", {x, IValue(4), IValue(2), IValue(5), IValue(-1)});
    EXPECT_EQ(e.sizes(), (Shape{4, 2, 5, 3}));
    EXPECT_EQ(e.strides(), (Shape{0, 3, 0, 1}));
    EXPECT_EQ(errorOf([&] { T("expand", {x, IValue::intList({2, 2, 4})}); }),
              "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 2.  Target sizes: [2, 2, 4].  "
              "Tensor sizes: [2, 1, 3]");
    EXPECT_EQ(T("flatten", {x}).sizes(), (Shape{6}));
    EXPECT_EQ(T("flatten", {T("zeros", {IValue::intList({2, 3, 4})}), IValue(1)}).sizes(), (Shape{2, 12}));
    EXPECT_EQ(errorOf([&] { T("permute", {x, IValue(0), IValue(1)}); }),
              "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions "
              "i.e. input.dim() = 3 is not equal to len(dims) = 2");
    EXPECT_EQ(errorOf([&] { T("t", {x}); }), "t() expects a tensor with <= 2 dimensions, but self is 3D");
}

TEST(View, SliceSelectNarrowAsStrided) {
    Tensor base = T("arange", {IValue(10)});
    Tensor s = T("slice", {base, IValue(0), IValue(1), IValue(8), IValue(3)});
    expectNear(s, {1, 4, 7});
    EXPECT_EQ(s.storageOffset(), 1);
    EXPECT_EQ(s.strides(), (Shape{3}));
    expectNear(T("slice", {base, IValue(0), IValue(-3), IValue(None{})}), {7, 8, 9});
    expectNear(T("narrow", {base, IValue(0), IValue(2), IValue(3)}), {2, 3, 4});
    EXPECT_EQ(errorOf([&] { T("narrow", {base, IValue(0), IValue(8), IValue(3)}); }), "start (8) + length (3) exceeds dimension size (10).");
    expectNear(T("select", {base, IValue(0), IValue(-1)}), {9});
    EXPECT_EQ(errorOf([&] { T("select", {base, IValue(0), IValue(10)}); }), "index 10 is out of bounds for dimension 0 with size 10");
    Tensor as = T("as_strided", {base, IValue::intList({2, 2}), IValue::intList({1, 2}), IValue(3)});
    expectNear(as, {3, 5, 4, 6});
    T("mul_", {as, IValue(10)});
    expectNear(base, {0, 1, 2, 30, 40, 50, 60, 7, 8, 9});
    IValue parts = call("unbind", {T("view", {base, IValue(2), IValue(5)}), IValue(1)});
    ASSERT_EQ(parts.toSequence()->items.size(), 5u);
    expectNear(parts.toSequence()->items[1].toTensor(), {1, 60});
}

TEST(View, ExtremeStepsAndBadStridesAreCleanErrors) {
    Tensor base = T("arange", {IValue(12)});
    const int64_t big = std::numeric_limits<int64_t>::max();
    Tensor s = T("slice", {base, IValue(0), IValue(5), IValue(big), IValue(big)});
    expectNear(s, {5});
    EXPECT_EQ(s.sizes(), (Shape{1}));
    Tensor rows = T("view", {base, IValue(3), IValue(4)});
    expectNear(T("slice", {rows, IValue(0), IValue(1), IValue(big), IValue(big - 1)}), {4, 5, 6, 7});
    EXPECT_EQ(errorOf([&] { T("as_strided", {base, IValue::intList({2}), IValue::intList({1}), IValue(-5)}); }),
              "Tensor: invalid storage offset -5");
    EXPECT_EQ(errorOf([&] { T("as_strided", {base, IValue::intList({2}), IValue::intList({-1}), IValue(5)}); }),
              "as_strided: Negative strides are not supported at the moment, got strides: [-1]");
    EXPECT_EQ(errorOf([&] { T("as_strided", {base, IValue::intList({-2}), IValue::intList({1})}); }),
              "Trying to create tensor with negative dimension -2: [-2]");
    EXPECT_EQ(errorOf([&] { T("as_strided", {base, IValue::intList({3, 2}), IValue::intList({big, big})}); }),
              "as_strided: sizes [3, 2] and strides [9223372036854775807, 9223372036854775807] overflow");
    // A fuzz find: repeat's sizes overflowed (undefined behaviour); they wrap as PyTorch's do.
    EXPECT_EQ(errorOf([&] { T("repeat", {T("arange", {IValue(2)}), IValue::intList({7777777777777777772})}); }),
              "Trying to create tensor with negative dimension -2891188518153996072: [-2891188518153996072]");
}

TEST(View, DetachAndRequiresGrad) {
    Tensor a = floats({1, 2});
    T("requires_grad_", {a});
    EXPECT_TRUE(a.requiresGrad());
    Tensor d = T("detach", {a});
    EXPECT_FALSE(d.requiresGrad());
    EXPECT_EQ(d.storage(), a.storage());
    EXPECT_TRUE(T("view", {a, IValue(2)}).requiresGrad());
    EXPECT_EQ(errorOf([&] { T("requires_grad_", {longs({1})}); }), "Only Tensors of floating point and complex dtype can require gradients");
}

// A copy between tensors of one dtype moves each element's bytes to its place, in every
// element size: rows contiguous in both (outer dims transposed), strided rows (the last dim
// moved out), a broadcast; 104,550 elements, split across threads.
TEST(View, CopiesOfOneDtypePutEveryElementInItsPlace) {
    const std::vector<int64_t> sizes{3, 50, 41, 17};
    const int64_t n = 3 * 50 * 41 * 17;
    Tensor base = T("reshape", {T("arange", {IValue(n)}), IValue::intList(sizes)});
    const std::vector<std::pair<DType, int64_t>> kinds{
        {DType::Bool, 2}, {DType::Float16, 2039}, {DType::Float32, n}, {DType::Int64, n}, {DType::Complex128, n}};
    auto readable = [](const Tensor& t) { return isComplex(t.dtype()) ? T("imag", {t}) : t; };
    for (const auto& [dtype, modulo] : kinds) {
        SCOPED_TRACE(dtypeName(dtype));
        Tensor x = T("to", {T("remainder", {base, IValue(modulo)})}, {{"dtype", IValue(dtype)}});
        if (isComplex(dtype)) x = T("mul", {x, T("view_as_complex", {floats({0.5, 1.0}, {}, DType::Float64)})});
        for (const Tensor& view : {T("permute", {x, IValue::intList({0, 2, 1, 3})}), T("permute", {x, IValue::intList({3, 1, 0, 2})}),
                                   T("expand", {T("narrow", {x, IValue(1), IValue(0), IValue(1)}), IValue::intList(sizes)})}) {
            Tensor copy = T("contiguous", {view});
            EXPECT_TRUE(copy.isContiguous());
            EXPECT_EQ(copy.dtype(), dtype);
            EXPECT_EQ(values(readable(copy)), values(readable(view)));
        }
    }
}

TEST(View, MetaMatchesKernel) {
    Tensor x = T("zeros", {IValue::intList({2, 3, 4})});
    Tensor m = toMeta(x);
    expectInferMatches("permute", {x, IValue::intList({2, 0, 1})}, {m, IValue::intList({2, 0, 1})});
    expectInferMatches("transpose", {x, IValue(0), IValue(2)}, {m, IValue(0), IValue(2)});
    expectInferMatches("view", {x, IValue::intList({6, 4})}, {m, IValue::intList({6, 4})});
    expectInferMatches("slice", {x, IValue(2), IValue(1), IValue(4), IValue(2)}, {m, IValue(2), IValue(1), IValue(4), IValue(2)});
    Tensor xt = T("transpose", {x, IValue(0), IValue(2)});
    expectInferMatches("reshape", {xt, IValue::intList({24})}, {toMeta(xt), IValue::intList({24})});
    expectInferMatches("expand", {x, IValue::intList({5, 2, 3, 4})}, {m, IValue::intList({5, 2, 3, 4})});
}

TEST(Joining, CatStack) {
    Tensor a = floats({1, 2, 3, 4}, {2, 2});
    Tensor b = floats({5, 6}, {1, 2});
    Tensor c = T("cat", {IValue::list({a, b})});
    EXPECT_EQ(c.sizes(), (Shape{3, 2}));
    expectNear(c, {1, 2, 3, 4, 5, 6});
    Tensor c1 = T("cat", {IValue::list({a, T("t", {a})}), IValue(1)});
    expectNear(c1, {1, 2, 1, 3, 3, 4, 2, 4});
    EXPECT_EQ(T("cat", {IValue::list({a, T("view", {longs({7, 8}), IValue(1), IValue(2)})})}).dtype(), DType::Float32);
    EXPECT_EQ(errorOf([&] { T("cat", {IValue::list({a, b}), IValue(1)}); }),
              "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 1 for tensor number 1 in the list.");
    Tensor s = T("stack", {IValue::list({floats({1, 2}), floats({3, 4})}), IValue(1)});
    EXPECT_EQ(s.sizes(), (Shape{2, 2}));
    expectNear(s, {1, 3, 2, 4});
    EXPECT_EQ(errorOf([&] { T("stack", {IValue::list({floats({1, 2}), floats({3})})}); }),
              "stack expects each tensor to be equal size, but got [2] at entry 0 and [1] at entry 1");
    Tensor meta = T("cat", {IValue::list({toMeta(a), toMeta(b)})});
    EXPECT_TRUE(meta.isMeta());
    EXPECT_EQ(meta.sizes(), (Shape{3, 2}));
}

TEST(MiscOps, MaskedFillTriangleCumsumOuterEyeAndPredicates) {
    auto vals = [](const Tensor& t) {
        std::vector<double> v;
        for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.readDouble(i));
        return v;
    };
    Tensor a = dispatch("reshape", {dispatch("arange", {IValue(9.0)}), IValue::intList({3, 3})}).toTensor();
    Tensor mask = dispatch("gt", {a, IValue(4.0)}).toTensor();
    EXPECT_EQ(vals(dispatch("masked_fill", {a, mask, IValue(-1.0)}).toTensor()), (std::vector<double>{0, 1, 2, 3, 4, -1, -1, -1, -1}));
    EXPECT_EQ(vals(dispatch("tril", {a}).toTensor()), (std::vector<double>{0, 0, 0, 3, 4, 0, 6, 7, 8}));
    EXPECT_EQ(vals(dispatch("triu", {a, IValue(int64_t{1})}).toTensor()), (std::vector<double>{0, 1, 2, 0, 0, 5, 0, 0, 0}));
    EXPECT_EQ(vals(dispatch("cumsum", {a, IValue(int64_t{0})}).toTensor()), (std::vector<double>{0, 1, 2, 3, 5, 7, 9, 12, 15}));
    EXPECT_EQ(vals(dispatch("cumsum", {a, IValue(int64_t{1})}).toTensor()), (std::vector<double>{0, 1, 3, 3, 7, 12, 6, 13, 21}));
    Tensor b = dispatch("tensor", {IValue::intList({1, 2})}).toTensor();
    Tensor o = dispatch("outer", {b, b}).toTensor();
    EXPECT_EQ(o.dtype(), DType::Int64);
    EXPECT_EQ(vals(o), (std::vector<double>{1, 2, 2, 4}));
    Tensor eye = dispatch("eye", {IValue(int64_t{2}), IValue(int64_t{3})}).toTensor();
    EXPECT_EQ(vals(eye), (std::vector<double>{1, 0, 0, 0, 1, 0}));
    EXPECT_EQ(dispatch("numel", {a}).toInt(), 9);
    EXPECT_TRUE(dispatch("allclose", {a, a}).toBool());
    EXPECT_FALSE(dispatch("allclose", {a, dispatch("add", {a, IValue(1.0)})}).toBool());
    EXPECT_TRUE(dispatch("equal", {a, dispatch("clone", {a}).toTensor()}).toBool());
    EXPECT_FALSE(dispatch("equal", {a, b}).toBool());
    Tensor same = dispatch("dropout", {a}, {{"training", IValue(false)}}).toTensor();
    EXPECT_EQ(same.impl(), a.impl());
    Tensor dropped = dispatch("dropout", {a}, {{"p", IValue(1.0)}}).toTensor();
    EXPECT_EQ(vals(dropped), std::vector<double>(9, 0.0));
    try {
        dispatch("masked_fill", {a, b, IValue(1.0)});
        FAIL();
    } catch (const ScriptError& e) {
        EXPECT_NE(std::string(e.what()).find("boolean masks"), std::string::npos);
    }
}
