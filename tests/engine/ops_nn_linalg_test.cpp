// nn (softmax, layer_norm), linalg (matmul, mm, bmm, linear) and conversion ops.

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "core/error.h"
#include "ops/convolution_kernel.h"
#include "ops/op_registry.h"
#include "ops_test_support.h"
#include "test_support.h"

using namespace fusescope;
using namespace fusescope::test;


TEST(Nn, SoftmaxLogSoftmax) {
    Tensor x = floats({1, 2, 3, 1, 1, 1}, {2, 3});
    expectNear(T("softmax", {x, IValue(1)}), {0.0900306, 0.2447285, 0.6652410, 1 / 3.0, 1 / 3.0, 1 / 3.0});
    expectNear(T("log_softmax", {x, IValue(-1)}), {-2.4076059, -1.4076059, -0.4076059, -1.0986123, -1.0986123, -1.0986123});
    expectNear(T("softmax", {x, IValue(0)}), {0.5, 0.7310586, 0.8807971, 0.5, 0.2689414, 0.1192029});
    Tensor xt = T("t", {x});
    expectNear(T("softmax", {xt, IValue(0)}), {0.0900306, 1 / 3.0, 0.2447285, 1 / 3.0, 0.6652410, 1 / 3.0});
    EXPECT_EQ(T("softmax", {x, IValue(1)}, {{"dtype", IValue(DType::Float64)}}).dtype(), DType::Float64);
    EXPECT_EQ(errorOf([&] { T("softmax", {x}); }), "softmax() missing required argument 'dim'");
    EXPECT_TRUE(OpRegistry::instance().find("softmax")->isFunctional);
}

TEST(Nn, LayerNorm) {
    Tensor x = floats({1, 2, 3, 2, 4, 6}, {2, 3});
    expectNear(T("layer_norm", {x, IValue::intList({3})}), {-1.2247357, 0, 1.2247357, -1.2247428, 0, 1.2247428}, 1e-5);
    Tensor w = floats({1, 2, 3});
    Tensor b = floats({0, 0, 1});
    expectNear(T("layer_norm", {x, IValue::intList({3}), w, b}), {-1.2247357, 0, 4.674207, -1.2247428, 0, 4.674228}, 1e-5);
    EXPECT_EQ(errorOf([&] { T("layer_norm", {x, IValue::intList({2})}); }),
              "Given normalized_shape=[2], expected input with shape [*, 2], but got input of size[2, 3]");
}

// A float32 convolution (oneDNN's primitive, made once per geometry) gives the same values
// after the primitives are released between runs, and matches the float64 loops.
TEST(Nn, ConvolutionPrimitivesAreRemadeAfterRelease) {
    std::vector<double> xs, ws;
    for (int i = 0; i < 2 * 3 * 5 * 5; ++i) xs.push_back(std::sin(0.1 * i));
    for (int i = 0; i < 4 * 3 * 3 * 3; ++i) ws.push_back(std::cos(0.2 * i));
    Tensor x = floats(xs, {2, 3, 5, 5}), w = floats(ws, {4, 3, 3, 3});
    Tensor first = T("conv2d", {x, w}, {{"padding", IValue(1)}});
    releaseConvolutionPrimitives();
    Tensor again = T("conv2d", {x, w}, {{"padding", IValue(1)}});
    Tensor exact = T("conv2d", {T("double", {x}), T("double", {w})}, {{"padding", IValue(1)}});
    ASSERT_EQ(first.numel(), 2 * 4 * 5 * 5);
    for (int64_t i = 0; i < first.numel(); ++i) {
        EXPECT_EQ(first.readDouble(i), again.readDouble(i)) << i;
        EXPECT_NEAR(first.readDouble(i), exact.readDouble(i), 1e-4) << i;
    }
}

// A convolution's scratch memory is its own, not the thread's that made it: each script
// runs on a thread of its own, and oneDNN's default (per-thread) scratch memory was freed
// when the first script's thread ended, so the same convolution in a later script wrote
// into freed memory (a segfault the script fuzzer found).
TEST(Nn, AConvolutionMadeOnAThreadThatEndedRunsOnAnother) {
    std::vector<double> xs, ws;
    for (int i = 0; i < 2 * 3 * 9 * 9; ++i) xs.push_back(std::sin(0.05 * i));
    for (int i = 0; i < 4 * 3 * 3 * 3; ++i) ws.push_back(std::cos(0.3 * i));
    Tensor x = floats(xs, {2, 3, 9, 9}), w = floats(ws, {4, 3, 3, 3}), b = floats({0.1, -0.2, 0.3, 0.0}, {4});
    std::vector<double> gs;
    for (int i = 0; i < 6 * 2 * 3 * 3; ++i) gs.push_back(std::sin(0.7 * i));
    Tensor g = floats(gs, {6, 2, 3, 3});
    // The crash's pair of scripts: a dilated convolution, then a grouped strided one on it.
    auto convolve = [&](const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& grouped) {
        Tensor y = T("conv2d", {input, weight, bias}, {{"padding", IValue(2)}, {"dilation", IValue(2)}});
        return T("conv2d", {y, grouped}, {{"stride", IValue(2)}, {"padding", IValue(1)}, {"groups", IValue(2)}});
    };
    releaseConvolutionPrimitives();
    Tensor first, second;
    std::thread([&] { first = convolve(x, w, b, g); }).join();
    std::thread([&] { second = convolve(x, w, b, g); }).join();
    Tensor exact = convolve(T("double", {x}), T("double", {w}), T("double", {b}), T("double", {g}));
    ASSERT_EQ(second.numel(), 2 * 6 * 5 * 5);
    for (int64_t i = 0; i < second.numel(); ++i) {
        EXPECT_EQ(first.readDouble(i), second.readDouble(i)) << i;
        EXPECT_NEAR(second.readDouble(i), exact.readDouble(i), 1e-4) << i;
    }
}

// A geometry oneDNN refuses (a kernel of height 0) runs in the plain loops: each output is
// the empty window's sum, 0, instead of oneDNN's exception ending the process.
TEST(Nn, AConvolutionOneDnnRefusesRunsInThePlainLoops) {
    std::vector<double> xs;
    for (int i = 0; i < 2 * 6 * 9 * 7; ++i) xs.push_back(std::sin(0.1 * i));
    Tensor y = T("conv2d", {floats(xs, {2, 6, 9, 7}), floats({}, {5, 6, 0, 1})}, {{"stride", IValue(3)}});
    EXPECT_EQ(y.sizes(), (Shape{2, 5, 4, 3}));
    for (int64_t i = 0; i < y.numel(); ++i) EXPECT_EQ(y.readDouble(i), 0.0) << i;
}

// Pooling of float16 and bfloat16 runs the float32 loops and rounds, as PyTorch's CPU
// kernels do; the loops once read half tensors as float, past their end (a fuzz find). The
// expected text is PyTorch 2.15's.
TEST(Nn, HalfPrecisionPoolingMatchesPyTorch) {
    ScriptRun run = runScript(R"(import torch
import torch.nn.functional as F
x = (torch.arange(2 * 3 * 8 * 8, dtype=torch.float16) * 0.1).sin().reshape(2, 3, 8, 8).requires_grad_()
y = F.max_pool2d(x, 3, 1, 1, dilation=2)
print(y[0, 0, :2])
y.sum().backward()
print(x.grad[0, 0, :2])
print(F.avg_pool2d(x, 3, 1, 1)[0, 0, :1])
print(F.adaptive_avg_pool2d(x, (3, 3))[0, 0, 0])
print(F.max_pool2d(x.bfloat16(), 2)[0, 0, 0])
)");
    EXPECT_EQ(run.error, "");
    EXPECT_EQ(run.out, R"(tensor([[0.8911, 0.9321, 0.9634, 0.9854, 0.9976, 0.9854],
        [0.9917, 0.9995, 0.9917, 0.9741, 0.9463, 0.9092]], dtype=torch.float16,
       grad_fn=<SliceBackward0>)
tensor([[0., 0., 0., 0., 0., 0., 0., 0.],
        [0., 0., 0., 2., 2., 2., 4., 2.]], dtype=torch.float16)
tensor([[0.1779, 0.2935, 0.3455, 0.3943, 0.4390, 0.4795, 0.5151, 0.3547]],
       dtype=torch.float16, grad_fn=<SliceBackward0>)
tensor([0.6230, 0.7236, 0.7837], dtype=torch.float16,
       grad_fn=<SelectBackward0>)
tensor([0.7812, 0.8906, 0.9648, 0.9961], dtype=torch.bfloat16,
       grad_fn=<SelectBackward0>)
)");
}

TEST(Linalg, MatmulCases) {
    Tensor a = floats({1, 2, 3, 4, 5, 6}, {2, 3});
    Tensor b = floats({1, 0, 0, 1, 1, 1}, {3, 2});
    Tensor mm = T("matmul", {a, b});
    EXPECT_EQ(mm.sizes(), (Shape{2, 2}));
    expectNear(mm, {4, 5, 10, 11});
    expectNear(T("mm", {a, b}), {4, 5, 10, 11});
    Tensor v = floats({1, 1, 1});
    Tensor mv = T("matmul", {a, v});
    EXPECT_EQ(mv.sizes(), (Shape{2}));
    expectNear(mv, {6, 15});
    Tensor vm = T("matmul", {floats({1, 1}), a});
    EXPECT_EQ(vm.sizes(), (Shape{3}));
    expectNear(vm, {5, 7, 9});
    Tensor dot = T("matmul", {v, v});
    EXPECT_EQ(dot.dim(), 0);
    EXPECT_EQ(dot.item(), 3);
    // Batched with broadcasting: [2,1,2,3] @ [3,2,3,2]... use [2,2,3] @ [3,2].
    Tensor batch = T("reshape", {T("arange", {IValue(12.0)}), IValue::intList({2, 2, 3})});
    Tensor bm = T("matmul", {batch, b});
    EXPECT_EQ(bm.sizes(), (Shape{2, 2, 2}));
    expectNear(bm, {2, 3, 8, 9, 14, 15, 20, 21});
    Tensor bb = T("matmul", {T("expand", {T("unsqueeze", {a, IValue(0)}), IValue::intList({4, 2, 3})}),
                             T("reshape", {T("arange", {IValue(24.0)}), IValue::intList({4, 3, 2})})});
    EXPECT_EQ(bb.sizes(), (Shape{4, 2, 2}));
    expectNear(T("select", {bb, IValue(0), IValue(0)}), {16, 22, 34, 49});
    Tensor bmm = T("bmm", {T("reshape", {T("arange", {IValue(12.0)}), IValue::intList({2, 2, 3})}),
                           T("reshape", {T("ones", {IValue::intList({6})}), IValue::intList({2, 3, 1})})});
    expectNear(bmm, {3, 12, 21, 30});
    Tensor ints = T("matmul", {longs({1, 2}), longs({3, 4})});
    EXPECT_EQ(ints.dtype(), DType::Int64);
    EXPECT_EQ(ints.item(), 11);
    // Transposed operand.
    expectNear(T("matmul", {T("t", {b}), T("t", {a})}), {4, 10, 5, 11});
}

TEST(Linalg, ErrorsAndLinear) {
    Tensor a = T("ones", {IValue::intList({2, 3})});
    Tensor b = T("ones", {IValue::intList({4, 5})});
    EXPECT_EQ(errorOf([&] { T("mm", {a, b}); }), "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
    EXPECT_EQ(errorOf([&] { T("matmul", {a, b}); }), "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
    EXPECT_EQ(errorOf([&] { T("matmul", {a, T("ones", {IValue::intList({3, 2})}, {{"dtype", IValue(DType::Float64)}})}); }),
              "expected m1 and m2 to have the same dtype, but got: float != double");
    Tensor x = floats({1, 2, 3, 4, 5, 6}, {2, 3});
    Tensor w = floats({1, 0, 0, 0, 1, 1}, {2, 3});
    Tensor bias = floats({10, 20});
    Tensor y = T("linear", {x, w, bias});
    EXPECT_EQ(y.sizes(), (Shape{2, 2}));
    expectNear(y, {11, 25, 14, 31});
    expectNear(T("linear", {x, w}), {1, 5, 4, 11});
    EXPECT_EQ(errorOf([&] { T("linear", {x, T("ones", {IValue::intList({2, 4})})}); }),
              "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)");
    expectInferMatches("linear", {x, w, bias}, {toMeta(x), toMeta(w), toMeta(bias)});
    expectInferMatches("matmul", {x, T("t", {w})}, {toMeta(x), toMeta(T("t", {w}))});
}

TEST(Conversion, ToAndCasts) {
    Tensor x = floats({1.7, -2.5});
    Tensor i = T("int", {x});
    EXPECT_EQ(i.dtype(), DType::Int32);
    expectNear(i, {1, -2});
    EXPECT_EQ(T("half", {x}).dtype(), DType::Float16);
    EXPECT_EQ(T("double", {x}).dtype(), DType::Float64);
    EXPECT_EQ(T("long", {x}).dtype(), DType::Int64);
    expectNear(T("bool", {floats({0, 0.5})}), {0, 1});
    EXPECT_EQ(T("float", {x}).impl(), x.impl());
    Tensor c = T("clone", {x});
    EXPECT_NE(c.storage(), x.storage());
    Tensor xt = T("t", {floats({1, 2, 3, 4}, {2, 2})});
    EXPECT_EQ(T("clone", {xt}).strides(), (Shape{1, 2}));  // preserve_format
    Tensor d = T("to", {x}, {{"dtype", IValue(DType::Float64)}});
    EXPECT_EQ(d.dtype(), DType::Float64);
    Tensor other = T("to", {x, longs({1})});
    EXPECT_EQ(other.dtype(), DType::Int64);
    EXPECT_EQ(T("ones_like", {xt}).strides(), (Shape{1, 2}));
    expectNear(T("full_like", {x, IValue(3)}), {3, 3});
    EXPECT_EQ(T("zeros_like", {x}, {{"dtype", IValue(DType::Int32)}}).dtype(), DType::Int32);
}
