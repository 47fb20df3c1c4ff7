// Pointwise ops: values, broadcasting, strided inputs, type promotion, in-place, meta.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.h"
#include "dispatch/dispatcher.h"
#include "ops/kernel_support.h"
#include "ops/op_registry.h"
#include "ops_test_support.h"

using namespace fusescope;
using namespace fusescope::test;


TEST(Pointwise, AddWithAlphaAndBroadcast) {
    Tensor a = floats({1, 2, 3, 4, 5, 6}, {2, 3});
    Tensor b = floats({10, 20, 30});
    expectNear(T("add", {a, b}), {11, 22, 33, 14, 25, 36});
    expectNear(T("add", {a, b}, {{"alpha", IValue(2)}}), {21, 42, 63, 24, 45, 66});
    expectNear(T("sub", {a, IValue(1)}), {0, 1, 2, 3, 4, 5});
    Tensor col = floats({1, 2}, {2, 1});
    Tensor out = T("mul", {col, b});
    EXPECT_EQ(out.sizes(), (Shape{2, 3}));
    expectNear(out, {10, 20, 30, 20, 40, 60});
}

TEST(Pointwise, BroadcastErrorMessage) {
    Tensor a = T("ones", {IValue::intList({2, 3})});
    Tensor b = T("ones", {IValue::intList({2, 4})});
    EXPECT_EQ(errorOf([&] { T("add", {a, b}); }),
              "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
}

TEST(Pointwise, NonContiguousInputs) {
    Tensor a = floats({1, 2, 3, 4, 5, 6}, {2, 3});
    Tensor at = T("t", {a});  // [[1,4],[2,5],[3,6]]
    Tensor out = T("add", {at, floats({100, 200})});
    expectNear(out, {101, 204, 102, 205, 103, 206});
    // Output follows the input's memory order, as TensorIterator does.
    EXPECT_EQ(T("exp", {at}).strides(), (Shape{1, 3}));
    EXPECT_EQ(T("add", {at, IValue(1)}).strides(), (Shape{1, 3}));
    Tensor stepped = T("slice", {floats({0, 1, 2, 3, 4, 5, 6}), IValue(0), IValue(1), IValue(7), IValue(2)});  // 1,3,5
    expectNear(T("mul", {stepped, stepped}), {1, 9, 25});
    Tensor expanded = T("expand", {floats({1, 2, 3}), IValue::intList({2, 3})});
    expectNear(T("neg", {expanded}), {-1, -2, -3, -1, -2, -3});
}

TEST(Pointwise, TypePromotion) {
    Tensor i = longs({1, 2, 3});
    Tensor f = floats({0.5, 0.5, 0.5});
    EXPECT_EQ(T("add", {i, f}).dtype(), DType::Float32);
    EXPECT_EQ(T("add", {i, IValue(2)}).dtype(), DType::Int64);
    EXPECT_EQ(T("add", {i, IValue(2.5)}).dtype(), DType::Float32);
    EXPECT_EQ(T("add", {f, IValue(2.5)}).dtype(), DType::Float32);
    Tensor h = floats({1, 2, 3}, {}, DType::Float16);
    EXPECT_EQ(T("add", {h, f}).dtype(), DType::Float32);
    EXPECT_EQ(T("mul", {h, IValue(2.0)}).dtype(), DType::Float16);
    Tensor b = T("tensor", {IValue::list({IValue(true), IValue(false), IValue(true)})});
    EXPECT_EQ(T("add", {b, i}).dtype(), DType::Int64);
    EXPECT_EQ(T("add", {b, IValue(1)}).dtype(), DType::Int64);
    EXPECT_EQ(T("add", {b, b}).dtype(), DType::Bool);
    Tensor i32 = longs({4, 5, 6}, DType::Int32);
    EXPECT_EQ(T("add", {i32, IValue(1)}).dtype(), DType::Int32);
    // A 0-dim tensor ranks below dimensioned ones in the same category...
    EXPECT_EQ(T("add", {i32, T("tensor", {IValue(1)})}).dtype(), DType::Int32);
    EXPECT_EQ(T("add", {h, T("tensor", {IValue(1.0)}, {{"dtype", IValue(DType::Float64)}})}).dtype(), DType::Float16);
    // ...but a higher category still wins.
    EXPECT_EQ(T("add", {i32, T("tensor", {IValue(1.5)}, {{"dtype", IValue(DType::Float64)}})}).dtype(), DType::Float64);
    Tensor q = T("div", {longs({7, -7}), longs({2, 2})});
    EXPECT_EQ(q.dtype(), DType::Float32);
    expectNear(q, {3.5, -3.5});
}

TEST(Pointwise, DivRoundingModes) {
    Tensor a = longs({7, -7});
    Tensor two = longs({2, 2});
    Tensor floor = T("div", {a, two}, {{"rounding_mode", IValue("floor")}});
    EXPECT_EQ(floor.dtype(), DType::Int64);
    expectNear(floor, {3, -4});
    expectNear(T("div", {a, two}, {{"rounding_mode", IValue("trunc")}}), {3, -3});
    expectNear(T("div", {floats({7, -7}), IValue(2)}, {{"rounding_mode", IValue("floor")}}), {3, -4});
    EXPECT_EQ(errorOf([&] { T("div", {a, two}, {{"rounding_mode", IValue("up")}}); }),
              "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'up'");
    expectNear(T("remainder", {longs({-7, 7}), IValue(3)}), {2, 1});
    expectNear(T("floor_divide", {longs({-7, 7}), IValue(2)}), {-4, 3});
}

TEST(Pointwise, PowMaxMinComparisons) {
    expectNear(T("pow", {longs({2, 3}), IValue(2)}), {4, 9});
    EXPECT_EQ(T("pow", {longs({2, 3}), IValue(2)}).dtype(), DType::Int64);
    expectNear(T("pow", {IValue(2), floats({0.5, 3})}), {std::sqrt(2.0), 8});
    EXPECT_EQ(errorOf([&] { T("pow", {longs({2}), IValue(-1)}); }), "Integers to negative integer powers are not allowed.");
    expectNear(T("maximum", {floats({1, NAN, 3}), floats({2, 0, 1})}), {2, NAN, 3});
    expectNear(T("minimum", {floats({1, 5}), floats({2, 0})}), {1, 0});
    Tensor lt = T("lt", {floats({1, 2, 3}), IValue(2)});
    EXPECT_EQ(lt.dtype(), DType::Bool);
    expectNear(lt, {1, 0, 0});
    expectNear(T("eq", {longs({1, 2}), floats({1.0, 2.5})}), {1, 0});
    expectNear(T("ge", {floats({1, 2}), floats({2, 2})}), {0, 1});
    expectNear(T("ne", {floats({1, 2}), IValue(1)}), {0, 1});
    expectNear(T("gt", {floats({1, 3}), IValue(2)}), {0, 1});
    expectNear(T("le", {floats({1, 3}), IValue(2)}), {1, 0});
}

TEST(Pointwise, Logical) {
    Tensor a = floats({0, 1, 2, 0});
    Tensor b = floats({0, 0, 3, 4});
    expectNear(T("logical_and", {a, b}), {0, 0, 1, 0});
    expectNear(T("logical_or", {a, b}), {0, 1, 1, 1});
    expectNear(T("logical_xor", {a, b}), {0, 1, 0, 1});
    Tensor n = T("logical_not", {a});
    EXPECT_EQ(n.dtype(), DType::Bool);
    expectNear(n, {1, 0, 0, 1});
    Tensor mask = T("gt", {a, IValue(0)});
    expectNear(T("bitwise_not", {mask}), {1, 0, 0, 1});
}

TEST(Pointwise, WhereAndClamp) {
    Tensor cond = T("gt", {floats({1, -1, 2}), IValue(0)});
    Tensor w = T("where", {cond, floats({1, 2, 3}), IValue(0)});
    expectNear(w, {1, 0, 3});
    EXPECT_EQ(w.dtype(), DType::Float32);
    Tensor wb = T("where", {T("reshape", {cond, IValue::intList({3, 1})}), floats({1, 2}), IValue(-1)});
    EXPECT_EQ(wb.sizes(), (Shape{3, 2}));
    EXPECT_EQ(errorOf([&] { T("where", {floats({1}), floats({1}), floats({1})}); }),
              "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
    expectNear(T("clamp", {floats({-2, 0.5, 3})}, {{"min", IValue(0)}, {"max", IValue(1)}}), {0, 0.5, 1});
    expectNear(T("clamp", {floats({-2, NAN})}, {{"min", IValue(0)}}), {0, NAN});
    EXPECT_EQ(T("clamp", {longs({-2, 5})}, {{"min", IValue(0)}}).dtype(), DType::Int64);
    EXPECT_EQ(T("clamp", {longs({-2, 5})}, {{"min", IValue(0.5)}}).dtype(), DType::Float32);
    EXPECT_EQ(errorOf([&] { T("clamp", {floats({1})}); }), "torch.clamp: At least one of 'min' or 'max' must not be None");
}

// clamp with tensor bounds (clamp.Tensor): bounds broadcast and promote as ordinary operands,
// a nan bound gives nan; the Scalar overload still takes numbers.
TEST(Pointwise, ClampTensorBounds) {
    Tensor c = T("clamp", {T("arange", {IValue(5.0)}), floats({1.0}, {}), floats({3, 3, 3, 3, 2})});
    expectNear(c, {1, 1, 2, 3, 2});
    Tensor lo = T("clamp", {T("arange", {IValue(5)})}, {{"min", longs({2, 0, 0, 0, 9})}});
    EXPECT_EQ(lo.dtype(), DType::Int64);
    expectNear(lo, {2, 1, 2, 3, 9});
    Tensor hi = T("clamp", {T("arange", {IValue(5)})}, {{"max", T("tensor", {IValue(2.5)})}});
    EXPECT_EQ(hi.dtype(), DType::Float32);
    expectNear(hi, {0, 1, 2, 2.5, 2.5});
    Tensor b = T("clamp", {T("reshape", {T("arange", {IValue(4.0)}), IValue::intList({4, 1})}), floats({0, 0, 0}), floats({1, 2, NAN})});
    EXPECT_EQ(b.sizes(), (Shape{4, 3}));
    expectNear(b, {0, 0, NAN, 1, 1, NAN, 1, 2, NAN, 1, 2, NAN});
    EXPECT_EQ(T("clamp", {longs({0, 1, 2}, DType::Int32), longs({1, 1, 1})}).dtype(), DType::Int64);
    expectNear(T("clamp", {T("arange", {IValue(5.0)}), IValue(1), IValue(3)}), {1, 1, 2, 3, 3});
}

// sigmoid and silu compute in float for float32 as PyTorch does: exp(100.f) overflows, so
// sigmoid(-100.) is exactly 0 (not the denormal 3.7e-44 double arithmetic gives) and silu is -0.
TEST(Pointwise, SigmoidSiluComputeInFloat) {
    Tensor s = T("sigmoid", {floats({-100, 100, 0})});
    EXPECT_EQ(s.readDouble(0), 0.0);
    EXPECT_EQ(s.readDouble(1), 1.0);
    EXPECT_EQ(s.readDouble(2), 0.5);
    EXPECT_EQ(T("sigmoid", {floats({0.3})}).readDouble(0), 0.5744425058364868);
    Tensor si = T("silu", {floats({-100, 2})});
    EXPECT_EQ(si.readDouble(0), 0.0);
    EXPECT_TRUE(std::signbit(si.readDouble(0)));
    EXPECT_EQ(si.readDouble(1), static_cast<double>(2.0f / (1.0f + std::exp(-2.0f))));
    Tensor d = T("sigmoid", {floats({-100}, {}, DType::Float64)});
    EXPECT_NEAR(d.readDouble(0), 3.7200759760208356e-44, 1e-57);
}

TEST(Pointwise, UnaryMath) {
    Tensor x = floats({-1, 0, 1});
    expectNear(T("neg", {x}), {1, 0, -1});
    expectNear(T("abs", {x}), {1, 0, 1});
    expectNear(T("exp", {x}), {std::exp(-1.0), 1, std::exp(1.0)}, 1e-6);
    expectNear(T("sin", {x}), {std::sin(-1.0), 0, std::sin(1.0)});
    expectNear(T("cos", {x}), {std::cos(-1.0), 1, std::cos(1.0)});
    expectNear(T("tanh", {x}), {std::tanh(-1.0), 0, std::tanh(1.0)});
    expectNear(T("sigmoid", {x}), {0.2689414, 0.5, 0.7310586});
    expectNear(T("relu", {x}), {0, 0, 1});
    expectNear(T("silu", {x}), {-0.2689414, 0, 0.7310586});
    expectNear(T("gelu", {x}), {-0.1586553, 0, 0.8413447});
    expectNear(T("gelu", {x}, {{"approximate", IValue("tanh")}}), {-0.1588080, 0, 0.8411920});
    expectNear(T("erf", {x}), {-0.8427008, 0, 0.8427008});
    expectNear(T("sqrt", {floats({4, 9})}), {2, 3});
    expectNear(T("rsqrt", {floats({4, 16})}), {0.5, 0.25});
    expectNear(T("log", {floats({1, std::exp(2.0)})}), {0, 2}, 1e-6);
    expectNear(T("reciprocal", {floats({2, 4})}), {0.5, 0.25});
    expectNear(T("round", {floats({0.5, 1.5, 2.5, -0.5})}), {0, 2, 2, -0});
    expectNear(T("round", {floats({1.2345})}, {{"decimals", IValue(2)}}), {1.23}, 1e-6);
    expectNear(T("floor", {floats({1.5, -1.5})}), {1, -2});
    expectNear(T("ceil", {floats({1.5, -1.5})}), {2, -1});
    // Float-only functions promote integers to the default float.
    Tensor e = T("exp", {longs({0, 1})});
    EXPECT_EQ(e.dtype(), DType::Float32);
    EXPECT_EQ(T("sqrt", {T("tensor", {IValue::list({IValue(true)})})}).dtype(), DType::Float32);
    EXPECT_EQ(T("abs", {longs({-3})}).dtype(), DType::Int64);
    EXPECT_EQ(T("gelu", {floats({1}, {}, DType::Float16)}).dtype(), DType::Float16);
    EXPECT_NE(errorOf([&] { T("neg", {T("tensor", {IValue::list({IValue(true)})})}); }).find("Negation"), std::string::npos);
}

TEST(Pointwise, SubBoolRejected) {
    Tensor b = T("tensor", {IValue::list({IValue(true)})});
    EXPECT_EQ(errorOf([&] { T("sub", {b, b}); }),
              "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
    EXPECT_EQ(errorOf([&] { T("add", {longs({1}), longs({1})}, {{"alpha", IValue(0.5)}}); }),
              "For integral input tensors, argument alpha must not be a floating point number.");
}

TEST(Pointwise, InPlaceWritesThroughStrides) {
    Tensor base = floats({1, 2, 3, 4, 5, 6}, {2, 3});
    Tensor col = T("select", {base, IValue(1), IValue(1)});  // [2, 5], stride 3
    Tensor r = T("add_", {col, IValue(10)});
    EXPECT_EQ(r.impl(), col.impl());
    expectNear(base, {1, 12, 3, 4, 15, 6});
    T("mul_", {T("t", {base}), floats({2, 1})});  // scales row 0 of base
    expectNear(base, {2, 24, 6, 4, 15, 6});
    T("sub_", {base, IValue(1)}, {{"alpha", IValue(2)}});
    expectNear(base, {0, 22, 4, 2, 13, 4});
    T("div_", {base, IValue(2)});
    expectNear(base, {0, 11, 2, 1, 6.5, 2});
    T("clamp_", {base}, {{"max", IValue(5)}});
    expectNear(base, {0, 5, 2, 1, 5, 2});
    T("fill_", {T("select", {base, IValue(0), IValue(0)}), IValue(-1)});
    expectNear(base, {-1, -1, -1, 1, 5, 2});
    T("relu_", {base});
    expectNear(base, {0, 0, 0, 1, 5, 2});
    T("copy_", {base, floats({7, 8, 9})});
    expectNear(base, {7, 8, 9, 7, 8, 9});
    T("zero_", {base});
    expectNear(base, {0, 0, 0, 0, 0, 0});
    Tensor ints = longs({1, 2});
    EXPECT_EQ(errorOf([&] { T("add_", {ints, IValue(1.5)}); }), "result type Float can't be cast to the desired output type Long");
    EXPECT_EQ(errorOf([&] { T("add_", {floats({1, 2}), floats({1, 2, 3, 4}, {2, 2})}); }),
              "output with shape [2] doesn't match the broadcast shape [2, 2]");
    T("copy_", {ints, floats({3.7, -1.2})});
    expectNear(ints, {3, -1});
}

TEST(Pointwise, HalfComputesInFloat) {
    Tensor h = floats({0.1, 1000}, {}, DType::Float16);
    Tensor s = T("add", {h, h});
    EXPECT_EQ(s.dtype(), DType::Float16);
    expectNear(s, {0.199951171875, 2000}, 0);
    Tensor bf = floats({1.5}, {}, DType::BFloat16);
    expectNear(T("mul", {bf, IValue(3)}), {4.5}, 0);
}

TEST(Pointwise, MetaInferenceMatchesKernel) {
    Tensor a = floats({1, 2, 3, 4, 5, 6}, {2, 3});
    Tensor at = T("t", {a});
    Tensor v = floats({1, 2});
    expectInferMatches("add", {at, v}, {toMeta(at), toMeta(v)});
    expectInferMatches("add", {longs({1, 2}), IValue(2.5)}, {toMeta(longs({1, 2})), IValue(2.5)});
    expectInferMatches("exp", {at}, {toMeta(at)});
    expectInferMatches("lt", {a, IValue(1)}, {toMeta(a), IValue(1)});
    expectInferMatches("div", {longs({1}), longs({2})}, {toMeta(longs({1})), toMeta(longs({2}))});
    Tensor cond = T("gt", {a, IValue(2)});
    expectInferMatches("where", {cond, a, IValue(0)}, {toMeta(cond), toMeta(a), IValue(0)});
    Tensor m = T("add_", {toMeta(a), IValue(1)});
    EXPECT_TRUE(m.isMeta());
    EXPECT_EQ(errorOf([&] { T("add", {toMeta(a), toMeta(T("ones", {IValue::intList({4})}))}); }),
              "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
}

// Float32 exact gelu reproduces oneDNN's AVX512 kernel PyTorch uses (values from PyTorch 2.15).
TEST(PointwiseOpsExtra, GeluFloat32MatchesPyTorch) {
    Tensor x = dispatch("linspace", {IValue(-3.0), IValue(3.0), IValue(int64_t{7})}).toTensor();
    Tensor g = dispatch("gelu", {x}).toTensor();
    const double expected[] = {-0.004050225019454956, -0.04550027847290039, -0.15865525603294373, 0.0,
                               0.8413447141647339,    1.9544997215270996,   2.9959497451782227};
    for (int i = 0; i < 7; ++i) EXPECT_EQ(g.readDouble(i), expected[i]) << i;
}

TEST(PointwiseOpsExtra, ClassificationSignSquareAndLogs) {
    IValueList items = {IValue(1.0), IValue(NAN), IValue(INFINITY), IValue(-2.0)};
    Tensor x = dispatch("tensor", {IValue::list(items)}).toTensor();
    auto vals = [](const Tensor& t) {
        std::vector<double> v;
        for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.readDouble(i));
        return v;
    };
    EXPECT_EQ(vals(dispatch("isnan", {x}).toTensor()), (std::vector<double>{0, 1, 0, 0}));
    EXPECT_EQ(vals(dispatch("isinf", {x}).toTensor()), (std::vector<double>{0, 0, 1, 0}));
    EXPECT_EQ(vals(dispatch("isfinite", {x}).toTensor()), (std::vector<double>{1, 0, 0, 1}));
    EXPECT_EQ(vals(dispatch("sign", {x}).toTensor()), (std::vector<double>{1, 0, 1, -1}));  // sign(nan) is 0
    EXPECT_EQ(dispatch("isnan", {x}).toTensor().dtype(), DType::Bool);
    Tensor ints = dispatch("tensor", {IValue::intList({3, -2})}).toTensor();
    EXPECT_EQ(vals(dispatch("square", {ints}).toTensor()), (std::vector<double>{9, 4}));
    EXPECT_EQ(vals(dispatch("isfinite", {ints}).toTensor()), (std::vector<double>{1, 1}));
    Tensor e = dispatch("tensor", {IValue::list({IValue(3.0)})}).toTensor();
    EXPECT_EQ(dispatch("exp2", {e}).toTensor().readDouble(0), 8.0);
    EXPECT_EQ(dispatch("log2", {dispatch("exp2", {e}).toTensor()}).toTensor().readDouble(0), 3.0);
    Tensor z = dispatch("tensor", {IValue::list({IValue(0.0)})}).toTensor();
    EXPECT_EQ(dispatch("log1p", {z}).toTensor().readDouble(0), 0.0);
    EXPECT_EQ(dispatch("expm1", {z}).toTensor().readDouble(0), 0.0);
    Tensor n = dispatch("tensor", {IValue::list({IValue(-1.5)})}).toTensor();
    dispatch("abs_", {n});
    EXPECT_EQ(n.readDouble(0), 1.5);
}

// Complex values: the ops with a complex form compute on both parts (meta results alike);
// every other op refuses them, and none differentiates them yet (docs/complex-tensors.md).
TEST(ComplexOps, FormsMetaAndRefusals) {
    Tensor z = T("view_as_complex", {floats({1, 2, 3, -4}, {2, 2})});  // [1+2i, 3-4i]
    Tensor product = T("mul", {z, z});                                  // [-3+4i, -7-24i]
    EXPECT_EQ(product.dtype(), DType::Complex64);
    expectNear(T("view_as_real", {product}), {-3, 4, -7, -24});
    expectNear(T("abs", {z}), {std::sqrt(5.0), 5});
    EXPECT_EQ(T("abs", {z}).dtype(), DType::Float32);
    expectNear(T("view_as_real", {T("div", {product, z})}), {1, 2, 3, -4});
    Tensor half = T("add", {z, Tensor::scalar(0.5, DType::Float64)});
    EXPECT_EQ(half.dtype(), DType::Complex64);  // a 0-dim float64 keeps complex64
    EXPECT_EQ(T("add", {z, floats({0.5, 1}, {2}, DType::Float64)}).dtype(), DType::Complex128);
    Tensor meta = T("mul", {toMeta(z), toMeta(z)});
    EXPECT_TRUE(meta.isMeta());
    EXPECT_EQ(meta.dtype(), DType::Complex64);
    EXPECT_EQ(T("abs", {toMeta(z)}).dtype(), DType::Float32);
    EXPECT_EQ(errorOf([&] { T("exp", {z}); }),
              "\"exp\" not implemented for 'ComplexFloat' (Fusescope's complex ops: docs/complex-tensors.md)");
    EXPECT_EQ(errorOf([&] { T("randn", {IValue::intList({2})}, {{"dtype", IValue(DType::Complex128)}}); }),
              "\"randn\" not implemented for 'ComplexDouble' (Fusescope's complex ops: docs/complex-tensors.md)");
    Tensor leaf = T("view_as_complex", {floats({1, 2}, {1, 2})});
    leaf.setRequiresGrad(true);
    EXPECT_EQ(errorOf([&] { T("mul", {leaf, leaf}); }),
              "mul: Fusescope does not differentiate complex tensors yet (run it under torch.no_grad())");
    EXPECT_EQ(errorOf([&] { z.readDouble(0); }), "a torch.complex64 element cannot be read or written as a real number");
}

// A channel's scale over its pixels and a bias along each row are read as constants and
// stretches (flatFloat32Apply's spans); over a tensor that crosses the thread and cancel-poll
// chunk boundaries mid-run, every element equals the one computed from contiguous copies.
TEST(Pointwise, RepeatedOperandsGiveTheBitsOfTheirContiguousCopies) {
    const int64_t n = 3, c = 37, w = 1001;  // 111,111 elements: runs of 1001 cut by chunks of 2^15 and 2^16
    auto mixed = [](int64_t count, double scale) {
        return T("sin", {T("mul", {T("arange", {IValue(count)}, {{"dtype", IValue(DType::Float32)}}), IValue(scale)})});
    };
    Tensor x = T("reshape", {mixed(n * c * w, 0.37), IValue::intList({n, c, w})});
    Tensor channel = T("reshape", {mixed(c, 1.3), IValue::intList({1, c, 1})});
    Tensor row = mixed(w, 0.71);
    auto full = [&](const Tensor& t) { return T("contiguous", {T("expand", {t, IValue::intList({n, c, w})})}); };
    auto expectSameBits = [](const Tensor& got, const Tensor& want) {
        ASSERT_EQ(got.sizes(), want.sizes());
        const float* g = static_cast<const float*>(got.dataPtr());
        const float* e = static_cast<const float*>(want.dataPtr());
        int64_t differ = 0;
        for (int64_t i = 0; i < got.numel(); ++i) differ += std::memcmp(g + i, e + i, sizeof(float)) != 0;
        EXPECT_EQ(differ, 0);
    };
    expectSameBits(T("mul", {x, channel}), T("mul", {x, full(channel)}));
    expectSameBits(T("sub", {channel, x}), T("sub", {full(channel), x}));  // the constant first
    expectSameBits(T("add", {x, row}), T("add", {x, full(row)}));
    expectSameBits(T("clamp", {x}, {{"min", IValue(channel)}, {"max", IValue(row)}}),  // three operands
                   T("clamp", {x}, {{"min", IValue(full(channel))}, {"max", IValue(full(row))}}));
    // A row and a channel together: spans end where either moves on.
    expectSameBits(T("mul", {T("expand", {channel, IValue::intList({n, c, w})}), row}), T("mul", {full(channel), full(row)}));
}

// Every float function has its in-place form, as PyTorch's Tensor.exp_() ...: the same bits
// as the function, written into self (here a transposed view), which is returned; an integer
// tensor cannot hold the float result.
TEST(Pointwise, InPlaceFloatFunctionsGiveTheFunctionsBitsInSelf) {
    for (const char* name : {"exp", "exp2", "expm1", "log", "log2", "log1p", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "erf"}) {
        SCOPED_TRACE(name);
        Tensor base = T("add", {T("mul", {T("rand", {IValue::intList({5, 7})}), IValue(3.0)}), IValue(0.25)});
        Tensor self = T("t", {T("clone", {base})});
        Tensor want = T(name, {self});
        IValue returned = dispatch(std::string(name) + "_", {self});
        EXPECT_EQ(returned.toTensor().dataPtr(), self.dataPtr());
        EXPECT_EQ(values(self), values(want));
        EXPECT_EQ(errorOf([&] { dispatch(std::string(name) + "_", {longs({1, 2})}); }),
                  "result type Float can't be cast to the desired output type Long");
    }
}

// A pointwise op's output is not zero-filled: its kernel writes every element. With
// FUSESCOPE_FILL_UNINITIALIZED_MEMORY (as the OpInfo and differential suites run) such an
// output starts as NaN or the largest integer, so an element left unwritten shows; here none
// is, over transposed, broadcast and contiguous operands split across threads.
TEST(Pointwise, EveryElementOfAnUnwrittenOutputIsWritten) {
    setFillUnwrittenOutputs(true);
    Tensor floatsLeft = allocateUnwritten(contiguousMeta({3}, DType::Float32));
    EXPECT_TRUE(std::isnan(floatsLeft.readDouble(2)));
    EXPECT_EQ(allocateUnwritten(contiguousMeta({2}, DType::Int64)).data<int64_t>()[1], std::numeric_limits<int64_t>::max());
    Tensor x = T("t", {T("add", {T("rand", {IValue::intList({300, 200})}), IValue(0.5)})});  // 60,000 elements, transposed
    Tensor row = T("add", {T("rand", {IValue::intList({300})}), IValue(0.5)});
    auto nans = [](const Tensor& t) {
        int64_t count = 0;
        for (double v : values(t)) count += std::isnan(v);
        return count;
    };
    for (const char* name : {"add", "sub", "mul", "div", "maximum", "remainder", "pow", "floor_divide"}) {
        SCOPED_TRACE(name);
        EXPECT_EQ(nans(T(name, {x, row})), 0);
        EXPECT_EQ(nans(T(name, {T("contiguous", {x}), IValue(2.0)})), 0);
    }
    for (const char* name : {"exp", "neg", "relu", "sigmoid", "abs", "floor", "tanh", "sqrt"}) {
        SCOPED_TRACE(name);
        EXPECT_EQ(nans(T(name, {x})), 0);
    }
    EXPECT_EQ(values(T("add", {longs({1, 2, 3}), longs({10})})), (std::vector<double>{11, 12, 13}));
    setFillUnwrittenOutputs(false);
}
