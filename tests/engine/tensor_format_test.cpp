// tensorRepr must match torch's default print byte for byte; formatPythonFloat Python's repr.

#include <gtest/gtest.h>

#include <cmath>

#include "core/tensor_format.h"
#include "dispatch/dispatcher.h"

using namespace fusescope;

namespace {
Tensor call(std::string_view name, IValueList args, Kwargs kwargs = {}) { return dispatch(name, args, kwargs).toTensor(); }
Tensor fromDoubles(std::vector<double> v, Kwargs kw = {}) {
    IValueList items;
    for (double d : v) items.emplace_back(d);
    return call("tensor", {IValue::list(items)}, kw);
}
Tensor fromInts(std::vector<int64_t> v, Kwargs kw = {}) { return call("tensor", {IValue::intList(v)}, kw); }
IValue ints(std::vector<int64_t> v) { return IValue::intList(v); }
}  // namespace

TEST(TensorRepr, FloatVectors) {
    EXPECT_EQ(tensorRepr(fromDoubles({1, 2, 3})), "tensor([1., 2., 3.])");
    EXPECT_EQ(tensorRepr(fromDoubles({0.1, 2.0})), "tensor([0.1000, 2.0000])");
    EXPECT_EQ(tensorRepr(fromDoubles({1e-5, 1e5})), "tensor([1.0000e-05, 1.0000e+05])");
    EXPECT_EQ(tensorRepr(fromDoubles({-1.5, 2.25})), "tensor([-1.5000,  2.2500])");
    EXPECT_EQ(tensorRepr(fromDoubles({1, -200})), "tensor([   1., -200.])");
    EXPECT_EQ(tensorRepr(fromDoubles({0, 0})), "tensor([0., 0.])");
    EXPECT_EQ(tensorRepr(fromDoubles({1, 10000})), "tensor([1.0000e+00, 1.0000e+04])");
}

TEST(TensorRepr, NanInf) {
    EXPECT_EQ(tensorRepr(fromDoubles({NAN, 1, INFINITY})), "tensor([nan, 1., inf])");
    EXPECT_EQ(tensorRepr(fromDoubles({0.5, -INFINITY})), "tensor([0.5000,   -inf])");
}

TEST(TensorRepr, Matrix) {
    Tensor a = call("view", {call("arange", {IValue(6.0)}), IValue(2), IValue(3)});
    EXPECT_EQ(tensorRepr(a), "tensor([[0., 1., 2.],\n        [3., 4., 5.]])");
    Tensor b = call("view", {fromDoubles({1.0, 1.5, 2.0, 3.0}), IValue(2), IValue(2)});
    EXPECT_EQ(tensorRepr(b), "tensor([[1.0000, 1.5000],\n        [2.0000, 3.0000]])");
    // Transposed views print their logical order.
    EXPECT_EQ(tensorRepr(call("t", {a})), "tensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]])");
}

TEST(TensorRepr, ThreeDims) {
    Tensor a = call("view", {call("arange", {IValue(8)}), IValue(2), IValue(2), IValue(2)});
    EXPECT_EQ(tensorRepr(a), "tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]])");
}

TEST(TensorRepr, IntsBoolsAndDtypes) {
    EXPECT_EQ(tensorRepr(fromInts({1, 2, 3})), "tensor([1, 2, 3])");
    EXPECT_EQ(tensorRepr(fromInts({1, -20, 3})), "tensor([  1, -20,   3])");
    EXPECT_EQ(tensorRepr(fromInts({1, 2}, {{"dtype", IValue(DType::Int32)}})), "tensor([1, 2], dtype=torch.int32)");
    EXPECT_EQ(tensorRepr(call("tensor", {IValue::list({IValue(true), IValue(false)})})), "tensor([ True, False])");
    EXPECT_EQ(tensorRepr(fromDoubles({1, 2}, {{"dtype", IValue(DType::Float64)}})), "tensor([1., 2.], dtype=torch.float64)");
    EXPECT_EQ(tensorRepr(fromDoubles({0.1}, {{"dtype", IValue(DType::Float16)}})), "tensor([0.1000], dtype=torch.float16)");
    EXPECT_EQ(tensorRepr(fromDoubles({1.5}, {{"dtype", IValue(DType::BFloat16)}})), "tensor([1.5000], dtype=torch.bfloat16)");
}

TEST(TensorRepr, Scalars) {
    EXPECT_EQ(tensorRepr(call("tensor", {IValue(3.0)})), "tensor(3.)");
    EXPECT_EQ(tensorRepr(call("tensor", {IValue(2.5)})), "tensor(2.5000)");
    EXPECT_EQ(tensorRepr(call("tensor", {IValue(7)})), "tensor(7)");
    EXPECT_EQ(tensorRepr(call("tensor", {IValue(true)})), "tensor(True)");
    EXPECT_EQ(tensorRepr(call("tensor", {IValue(1e-7)})), "tensor(1.0000e-07)");
}

TEST(TensorRepr, EmptyAndMeta) {
    EXPECT_EQ(tensorRepr(call("tensor", {IValue::list({})})), "tensor([])");
    EXPECT_EQ(tensorRepr(call("zeros", {ints({0, 3})})), "tensor([], size=(0, 3))");
    EXPECT_EQ(tensorRepr(call("zeros", {ints({0})}, {{"dtype", IValue(DType::Int64)}})), "tensor([], dtype=torch.int64)");
    EXPECT_EQ(tensorRepr(call("ones", {ints({2, 3})}, {{"device", IValue("meta")}})), "tensor(..., device='meta', size=(2, 3))");
    EXPECT_EQ(tensorRepr(call("ones", {ints({2})}, {{"device", IValue("meta")}, {"dtype", IValue(DType::Int64)}})),
              "tensor(..., device='meta', size=(2,), dtype=torch.int64)");
}

TEST(TensorRepr, RequiresGrad) {
    EXPECT_EQ(tensorRepr(fromDoubles({1, 2}, {{"requires_grad", IValue(true)}})), "tensor([1., 2.], requires_grad=True)");
}

TEST(TensorRepr, LineWrapping) {
    // 20 elements of width 6 ("0.0000") + 2 = 8 chars: (80 - 7) / 8 = 9 per line.
    Tensor a = call("div", {call("arange", {IValue(20)}), IValue(3)});
    EXPECT_EQ(tensorRepr(a),
              "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,\n"
              "        3.0000, 3.3333, 3.6667, 4.0000, 4.3333, 4.6667, 5.0000, 5.3333, 5.6667,\n"
              "        6.0000, 6.3333])");
}

TEST(TensorRepr, Summarized) {
    EXPECT_EQ(tensorRepr(call("arange", {IValue(2000)})), "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])");
    Tensor m = call("view", {call("arange", {IValue(1000.0), IValue(3000.0)}), IValue(40), IValue(50)});
    EXPECT_EQ(tensorRepr(m),
              "tensor([[1000., 1001., 1002.,  ..., 1047., 1048., 1049.],\n"
              "        [1050., 1051., 1052.,  ..., 1097., 1098., 1099.],\n"
              "        [1100., 1101., 1102.,  ..., 1147., 1148., 1149.],\n"
              "        ...,\n"
              "        [2850., 2851., 2852.,  ..., 2897., 2898., 2899.],\n"
              "        [2900., 2901., 2902.,  ..., 2947., 2948., 2949.],\n"
              "        [2950., 2951., 2952.,  ..., 2997., 2998., 2999.]])");
    // max/min > 1000 switches to scientific notation; 12-char elements fit 6 to a line.
    Tensor s = call("view", {call("arange", {IValue(2000.0)}), IValue(40), IValue(50)});
    std::string repr = tensorRepr(s);
    EXPECT_EQ(repr.substr(0, 97),
              "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 4.7000e+01, 4.8000e+01,\n"
              "         4.9000e+01],\n");
}

TEST(TensorRepr, SuffixWrapsPastLineWidth) {
    Tensor a = call("div", {call("arange", {IValue(9)}), IValue(3)}, {});
    Tensor d = call("to", {a, IValue(DType::Float64)});
    EXPECT_EQ(tensorRepr(d),
              "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667],\n"
              "       dtype=torch.float64)");
}

TEST(PythonFloat, Repr) {
    EXPECT_EQ(formatPythonFloat(0.1), "0.1");
    EXPECT_EQ(formatPythonFloat(1.0), "1.0");
    EXPECT_EQ(formatPythonFloat(1e-5), "1e-05");
    EXPECT_EQ(formatPythonFloat(0.0001), "0.0001");
    EXPECT_EQ(formatPythonFloat(1e16), "1e+16");
    EXPECT_EQ(formatPythonFloat(1e15), "1000000000000000.0");
    EXPECT_EQ(formatPythonFloat(123456789.125), "123456789.125");
    EXPECT_EQ(formatPythonFloat(-0.0), "-0.0");
    EXPECT_EQ(formatPythonFloat(-2.5), "-2.5");
    EXPECT_EQ(formatPythonFloat(1.5e300), "1.5e+300");
    EXPECT_EQ(formatPythonFloat(0.30000000000000004), "0.30000000000000004");
    EXPECT_EQ(formatPythonFloat(INFINITY), "inf");
    EXPECT_EQ(formatPythonFloat(-INFINITY), "-inf");
    EXPECT_EQ(formatPythonFloat(NAN), "nan");
}
