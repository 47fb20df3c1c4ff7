// Tensor core: dtypes, devices, storage/strides, element access, half conversion, random,
// and the op registry's schema binding.

#include <gtest/gtest.h>

#include <cmath>

#include "core/complex_parts.h"
#include "core/error.h"
#include "core/half.h"
#include "core/random.h"
#include "core/tensor.h"
#include "core/tensor_format.h"
#include "dispatch/dispatcher.h"
#include "ops/op_registry.h"

using namespace fusescope;

namespace {
const OpRegistry& reg() { return OpRegistry::instance(); }
Tensor call(std::string_view name, IValueList args, Kwargs kwargs = {}) { return dispatch(name, args, kwargs).toTensor(); }
IValue ints(std::vector<int64_t> v) { return IValue::intList(v); }
IValue floats(std::vector<double> v) {
    IValueList items;
    for (double d : v) items.emplace_back(d);
    return IValue::list(items);
}
std::string errorOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const ScriptError& e) {
        return e.kind() + ": " + e.what();
    }
    return "no error";
}
}  // namespace

TEST(DType, NamesAndParsing) {
    EXPECT_EQ(dtypeName(DType::Float32), "torch.float32");
    EXPECT_EQ(dtypeScalarName(DType::BFloat16), "BFloat16");
    EXPECT_EQ(dtypeScalarName(DType::Int64), "Long");
    EXPECT_EQ(dtypeScalarName(DType::Int32), "Int");
    EXPECT_EQ(dtypeFromName("half"), DType::Float16);
    EXPECT_EQ(dtypeFromName("double"), DType::Float64);
    EXPECT_EQ(dtypeFromName("long"), DType::Int64);
    EXPECT_EQ(dtypeFromName("int"), DType::Int32);
    EXPECT_EQ(dtypeFromName("cfloat"), DType::Complex64);
    EXPECT_EQ(dtypeFromName("torch.complex128"), DType::Complex128);
    EXPECT_FALSE(dtypeFromName("complex32").has_value());
    EXPECT_EQ(dtypeScalarName(DType::Complex64), "ComplexFloat");
    EXPECT_EQ(dtypeSize(DType::BFloat16), 2u);
    EXPECT_EQ(dtypeSize(DType::Complex128), 16u);
}

TEST(DType, PromoteTypes) {
    EXPECT_EQ(promoteTypes(DType::Float16, DType::BFloat16), DType::Float32);
    EXPECT_EQ(promoteTypes(DType::Int64, DType::Float16), DType::Float16);
    EXPECT_EQ(promoteTypes(DType::Bool, DType::Int32), DType::Int32);
    EXPECT_EQ(promoteTypes(DType::Int32, DType::Int64), DType::Int64);
    EXPECT_EQ(promoteTypes(DType::Float32, DType::Float64), DType::Float64);
    EXPECT_EQ(promoteTypes(DType::Bool, DType::Bool), DType::Bool);
    // Complex holds the other operand's precision: torch.promote_types.
    EXPECT_EQ(promoteTypes(DType::Complex64, DType::Float64), DType::Complex128);
    EXPECT_EQ(promoteTypes(DType::Float16, DType::Complex64), DType::Complex64);
    EXPECT_EQ(promoteTypes(DType::Int64, DType::Complex64), DType::Complex64);
    EXPECT_EQ(promoteTypes(DType::Complex64, DType::Complex128), DType::Complex128);
}

// A complex tensor seen as real pairs and back shares its storage; its parts are strided views.
TEST(DType, ComplexViews) {
    Tensor pairs = Tensor::empty({3, 2}, DType::Float32);
    for (int64_t i = 0; i < 6; ++i) pairs.writeDouble(i, static_cast<double>(i));
    Tensor c = pairsAsComplex(pairs);
    EXPECT_EQ(c.dtype(), DType::Complex64);
    EXPECT_EQ(c.sizes(), Shape({3}));
    Tensor im = complexPart(c, 1);
    EXPECT_EQ(im.strides(), Shape({2}));
    EXPECT_EQ(im.readDouble(2), 5.0);
    EXPECT_EQ(complexAsPairs(c).sizes(), Shape({3, 2}));
    EXPECT_THROW(c.readDouble(0), ScriptError);  // a complex value is no real number
    EXPECT_THROW(pairsAsComplex(pairs.asStrided({3}, {2}, 0)), ScriptError);
}

TEST(Device, ParseAndPrint) {
    EXPECT_EQ(Device::parse("cuda:1")->str(), "cuda:1");
    EXPECT_TRUE(Device::parse("meta")->isMeta());
    EXPECT_EQ(*Device::parse("cpu"), Device::cpu());
    EXPECT_FALSE(Device::parse("tpu").has_value());
    EXPECT_FALSE(Device::parse("cuda:x").has_value());
}

TEST(Half, RoundTripAndRounding) {
    EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
    EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
    EXPECT_EQ(halfToFloat(floatToHalf(65504.0f)), 65504.0f);
    EXPECT_TRUE(std::isinf(halfToFloat(floatToHalf(65520.0f))));
    // 1 + 2^-11 is halfway between 1 and the next half: ties go to even (1.0).
    EXPECT_EQ(halfToFloat(floatToHalf(1.0f + 0x1.0p-11f)), 1.0f);
    EXPECT_EQ(halfToFloat(floatToHalf(1.0f + 3 * 0x1.0p-11f)), 1.0f + 0x1.0p-9f);
    EXPECT_EQ(halfToFloat(floatToHalf(0x1.0p-24f)), 0x1.0p-24f);  // smallest subnormal
    EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
    EXPECT_EQ(bfloat16ToFloat(floatToBfloat16(1.0f + 0x1.0p-8f)), 1.0f);  // tie to even
    EXPECT_EQ(bfloat16ToFloat(floatToBfloat16(3.0f)), 3.0f);
    EXPECT_FLOAT_EQ(halfToFloat(floatToHalf(0.1f)), 0.0999755859375f);
}

TEST(Tensor, EmptyStridesAndAccess) {
    Tensor t = Tensor::empty({2, 3}, DType::Float32);
    EXPECT_EQ(t.strides(), (Shape{3, 1}));
    EXPECT_TRUE(t.isContiguous());
    EXPECT_EQ(t.numel(), 6);
    EXPECT_EQ(t.readDouble(4), 0.0);
    t.writeDouble(4, 2.5);
    EXPECT_EQ(t.readDouble(4), 2.5);
    EXPECT_EQ(t.size(-1), 3);
    Tensor tt = t.asStrided({3, 2}, {1, 3}, 0);
    EXPECT_FALSE(tt.isContiguous());
    EXPECT_EQ(tt.readDouble(3), 2.5);  // (1,1) in the transposed view is element 4
    EXPECT_THROW(t.size(2), ScriptError);
    EXPECT_EQ(Tensor::scalar(3.0, DType::Int64).item(), 3.0);
    EXPECT_THROW(t.item(), ScriptError);
}

TEST(Tensor, HalfStorageRounds) {
    Tensor h = Tensor::empty({1}, DType::Float16);
    h.writeDouble(0, 0.1);
    EXPECT_DOUBLE_EQ(h.readDouble(0), 0.0999755859375);
}

TEST(Tensor, MetaHasNoData) {
    Tensor m = Tensor::emptyMeta({2, 3}, {1, 2}, DType::Float16);
    EXPECT_TRUE(m.isMeta());
    EXPECT_EQ(m.storage(), nullptr);
    EXPECT_THROW(m.dataPtr(), ScriptError);
    Tensor real = Tensor::empty({4}, DType::Int32);
    m.become(real);
    EXPECT_FALSE(m.isMeta());
    EXPECT_EQ(m.sizes(), (Shape{4}));
}

TEST(Random, DeterministicForSeed) {
    manualSeed(42);
    double a = randomNormal(), b = randomUniform();
    int64_t c = randomInt(3, 7);
    manualSeed(42);
    EXPECT_EQ(randomNormal(), a);
    EXPECT_EQ(randomUniform(), b);
    EXPECT_EQ(randomInt(3, 7), c);
    EXPECT_GE(c, 3);
    EXPECT_LT(c, 7);
    manualSeed(0);
    Tensor r1 = call("randn", {ints({100})});
    manualSeed(0);
    Tensor r2 = call("randn", {ints({100})});
    double mean = 0;
    for (int i = 0; i < 100; ++i) {
        EXPECT_EQ(r1.readDouble(i), r2.readDouble(i));
        mean += r1.readDouble(i) / 100;
    }
    EXPECT_LT(std::fabs(mean), 0.5);
    Tensor u = call("rand", {ints({50})});
    for (int i = 0; i < 50; ++i) {
        EXPECT_GE(u.readDouble(i), 0.0);
        EXPECT_LT(u.readDouble(i), 1.0);
    }
    Tensor ri = call("randint", {IValue(2), IValue(5), ints({20})});
    EXPECT_EQ(ri.dtype(), DType::Int64);
    for (int i = 0; i < 20; ++i) {
        EXPECT_GE(ri.readInt64(i), 2);
        EXPECT_LT(ri.readInt64(i), 5);
    }
    Tensor ri2 = call("randint", {IValue(5), ints({3})});
    EXPECT_EQ(ri2.sizes(), (Shape{3}));
}

TEST(Registry, SchemaParsing) {
    ParsedSchema s = parseSchema("sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor");
    ASSERT_EQ(s.params.size(), 4u);
    EXPECT_EQ(s.params[1].type, "int[]");
    EXPECT_TRUE(s.params[1].optional);
    EXPECT_TRUE(s.params[1].defaultValue.isNone());
    EXPECT_FALSE(s.params[2].defaultValue.toBool());
    EXPECT_TRUE(s.params[3].kwOnly);
    EXPECT_FALSE(s.params[2].kwOnly);
    ParsedSchema l = parseSchema("layer_norm(Tensor input, int[] normalized_shape, float eps=1e-05, str m='none') -> Tensor");
    EXPECT_DOUBLE_EQ(l.params[2].defaultValue.toDouble(), 1e-5);
    EXPECT_EQ(l.params[3].defaultValue.toString(), "none");
}

TEST(Registry, BindErrors) {
    Tensor x = call("ones", {ints({3})});
    EXPECT_EQ(errorOf([&] { call("add", {x, x}, {{"foo", IValue(1)}}); }), "TypeError: add() got an unexpected keyword argument 'foo'");
    EXPECT_EQ(errorOf([&] { call("add", {x}); }), "TypeError: add() missing required argument 'other'");
    EXPECT_EQ(errorOf([&] { call("add", {x, x, x}); }), "TypeError: add() takes 2 positional arguments but 3 were given");
    EXPECT_EQ(errorOf([&] { call("add", {x, IValue("a")}); }),
              "TypeError: add(): argument 'other' (position 2) must be Tensor, not str");
    EXPECT_EQ(errorOf([&] { call("add", {x, x}, {{"other", x}}); }), "TypeError: add() got multiple values for argument 'other'");
    EXPECT_EQ(errorOf([&] { dispatch("nonexistent_op", {}); }).substr(0, 14), "AttributeError");
}

TEST(Registry, VarargsAndDefaults) {
    Tensor a = call("ones", {IValue(2), IValue(3)});
    EXPECT_EQ(a.sizes(), (Shape{2, 3}));
    Tensor b = call("zeros", {IValue(4)});
    EXPECT_EQ(b.sizes(), (Shape{4}));
    Tensor c = call("view", {a, IValue(3), IValue(2)});
    EXPECT_EQ(c.sizes(), (Shape{3, 2}));
    Tensor d = call("ones", {ints({2})}, {{"dtype", IValue(DType::Int32)}});
    EXPECT_EQ(d.dtype(), DType::Int32);
    EXPECT_EQ(reg().find("add")->isMethod, true);
    EXPECT_EQ(reg().find("ones")->isMethod, false);
    EXPECT_EQ(reg().find("view")->isFunction, false);
    EXPECT_TRUE(reg().find("transpose")->isFunction);
}

TEST(Registry, MetaDeviceRunsInfer) {
    Tensor m = call("ones", {ints({2, 3})}, {{"device", IValue("meta")}});
    EXPECT_TRUE(m.isMeta());
    EXPECT_EQ(m.sizes(), (Shape{2, 3}));
    Tensor x = call("ones", {ints({2, 3})});
    Tensor xm = call("to", {x, IValue("meta")});
    EXPECT_TRUE(xm.isMeta());
    Tensor h = call("to", {x, IValue(DType::Float16)});
    EXPECT_EQ(h.dtype(), DType::Float16);
    EXPECT_EQ(h.readDouble(0), 1.0);
    EXPECT_EQ(call("to", {x, IValue("cpu")}).impl(), x.impl());  // no change: same tensor
    EXPECT_EQ(errorOf([&] { call("ones", {ints({2})}, {{"device", IValue("tpu")}}); }),
              "RuntimeError: Expected one of cpu, cuda, meta device type at start of device string: tpu");
}

TEST(Registry, TensorFromData) {
    IValueList rows = {floats({1, 2}), floats({3, 4.5})};
    Tensor t = call("tensor", {IValue::list(rows)});
    EXPECT_EQ(t.sizes(), (Shape{2, 2}));
    EXPECT_EQ(t.dtype(), DType::Float32);
    EXPECT_EQ(t.readDouble(3), 4.5);
    Tensor i = call("tensor", {IValue::list({IValue(true), IValue(3)})});
    EXPECT_EQ(i.dtype(), DType::Int64);
    EXPECT_EQ(i.readInt64(0), 1);
    Tensor b = call("tensor", {IValue::list({IValue(true), IValue(false)})});
    EXPECT_EQ(b.dtype(), DType::Bool);
    Tensor s = call("tensor", {IValue(2.5)});
    EXPECT_EQ(s.dim(), 0);
    EXPECT_EQ(errorOf([&] { call("tensor", {IValue::list({floats({1, 2}), floats({3})})}); }),
              "ValueError: expected sequence of length 2 at dim 1 (got 1)");
    EXPECT_EQ(errorOf([&] { call("tensor", {IValue::list({IValue(1)})}, {{"requires_grad", IValue(true)}}); }),
              "RuntimeError: Only Tensors of floating point and complex dtype can require gradients");
    Tensor g = call("tensor", {floats({1})}, {{"requires_grad", IValue(true)}});
    EXPECT_TRUE(g.requiresGrad());
}

TEST(Registry, ArangeLinspaceFull) {
    Tensor a = call("arange", {IValue(5)});
    EXPECT_EQ(a.dtype(), DType::Int64);
    EXPECT_EQ(a.readInt64(4), 4);
    Tensor b = call("arange", {IValue(1), IValue(2.0), IValue(0.25)});
    EXPECT_EQ(b.dtype(), DType::Float32);
    EXPECT_EQ(b.numel(), 4);
    EXPECT_EQ(b.readDouble(3), 1.75);
    Tensor l = call("linspace", {IValue(0), IValue(1), IValue(5)});
    EXPECT_EQ(l.readDouble(1), 0.25);
    EXPECT_EQ(l.readDouble(4), 1.0);
    Tensor f = call("full", {ints({2}), IValue(7)});
    EXPECT_EQ(f.dtype(), DType::Int64);
    Tensor fb = call("full", {ints({2}), IValue(true)});
    EXPECT_EQ(fb.dtype(), DType::Bool);
    EXPECT_EQ(errorOf([&] { call("arange", {IValue(0), IValue(5), IValue(0)}); }), "RuntimeError: step must be nonzero");
}

// linspace as PyTorch's CPU kernel: one step is start; float/double values are computed in the
// output type with fused multiply-adds, up from start for the first half and down from end for
// the second (expected values are PyTorch's).
TEST(Registry, LinspaceMatchesPyTorchBits) {
    Tensor one = call("linspace", {IValue(0), IValue(1), IValue(1)});
    ASSERT_EQ(one.numel(), 1);
    EXPECT_EQ(one.readDouble(0), 0.0);
    EXPECT_EQ(call("linspace", {IValue(2.0), IValue(5.0), IValue(1)}).readDouble(0), 2.0);
    Tensor f = call("linspace", {IValue(-1.3), IValue(2.7), IValue(37)});
    EXPECT_EQ(f.readDouble(17), 0.588888943195343);
    EXPECT_EQ(f.readDouble(36), static_cast<double>(2.7f));
    Tensor f31 = call("linspace", {IValue(-1.3), IValue(2.7), IValue(31)});
    EXPECT_EQ(f31.readDouble(6), -0.49999991059303284);
    EXPECT_EQ(f31.readDouble(11), 0.16666679084300995);
    Tensor d = call("linspace", {IValue(-1.3), IValue(2.7), IValue(7)}, {{"dtype", IValue(DType::Float64)}});
    EXPECT_EQ(d.readDouble(3), 0.7000000000000003);
    EXPECT_EQ(d.readDouble(4), 1.366666666666667);
    EXPECT_EQ(d.readDouble(2), 0.033333333333333215);
    EXPECT_EQ(tensorRepr(call("mul", {call("slice", {f, IValue(0), IValue(10), IValue(20)}), IValue(1000)})),
              "tensor([-188.8888,  -77.7777,   33.3334,  144.4445,  255.5556,  366.6667,\n"
              "         477.7778,  588.8889,  700.0001,  811.1111])");
}
