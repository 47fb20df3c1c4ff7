// Every derivative in the op registry against central differences in float64: for random
// inputs x and a random weight w, the gradient backward() gives of sum(op(x) * w) must match
// (f(x + eps) - f(x - eps)) / 2eps, element by element, for each input.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "autograd/backward_engine.h"
#include "core/autograd_node.h"
#include "ops_test_support.h"

namespace fusescope::test {
namespace {

struct GradCase {
    std::string op;  // the op whose derivative it checks
    std::vector<Shape> shapes;
    std::function<Tensor(const std::vector<Tensor>&)> run;
    bool positive = false;  // inputs in [0.5, 2] (log, sqrt, pow, div's divisor), else [-2, 2] away from 0
};

// Deterministic values, not too near 0 (relu's kink).
Tensor randomInput(const Shape& shape, bool positive, uint64_t& seed) {
    std::vector<double> v(static_cast<size_t>(shapeNumel(shape)));
    for (double& x : v) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        double unit = static_cast<double>(seed >> 11) / static_cast<double>(1ULL << 53);
        x = positive ? 0.5 + 1.5 * unit : (unit < 0.5 ? -2.0 + 3.6 * unit : 0.2 + 3.6 * (unit - 0.5));
    }
    return floats(v, shape.empty() ? Shape{} : shape, DType::Float64);
}

double weightedSum(const Tensor& out, const Tensor& weight) { return T("sum", {T("mul", {out, weight})}).readDouble(0); }

Tensor U(std::string_view op, IValueList args, Kwargs kwargs = {}) { return T(op, std::move(args), std::move(kwargs)); }
// The first result of an op giving (values, indices).
Tensor Values(std::string_view op, IValueList args) { return call(op, std::move(args)).toSequence()->items[0].toTensor(); }

std::vector<GradCase> gradCases() {
    using V = const std::vector<Tensor>&;
    auto unary = [](const char* op, bool positive = false) {
        return GradCase{op, {{2, 3}}, [op](V x) { return U(op, {x[0]}); }, positive};
    };
    return {
        {"add", {{2, 3}, {3}}, [](V x) { return U("add", {x[0], x[1]}, {{"alpha", 2.0}}); }},
        {"sub", {{2, 3}, {2, 1}}, [](V x) { return U("sub", {x[0], x[1]}); }},
        {"mul", {{2, 3}, {1, 3}}, [](V x) { return U("mul", {x[0], x[1]}); }},
        {"div", {{2, 3}, {2, 3}}, [](V x) { return U("div", {x[0], x[1]}); }, true},
        {"pow", {{4}, {4}}, [](V x) { return U("pow", {x[0], x[1]}); }, true},
        unary("neg"), unary("abs"), unary("exp"), unary("log", true), unary("sqrt", true), unary("sin"), unary("cos"),
        unary("tanh"), unary("sigmoid"), unary("relu"),
        {"gelu", {{2, 3}}, [](V x) { return U("gelu", {x[0]}); }},
        {"gelu", {{2, 3}}, [](V x) { return U("gelu", {x[0]}, {{"approximate", "tanh"}}); }},
        {"where", {{2, 3}, {3}}, [](V x) { return U("where", {U("gt", {x[0], 0.0}), x[0], x[1]}); }},
        {"masked_fill", {{2, 3}}, [](V x) { return U("masked_fill", {x[0], U("lt", {x[0], 0.0}), 7.0}); }},
        {"masked_fill.Tensor", {{2, 3}, {1}}, [](V x) {
            return U("masked_fill", {x[0], U("lt", {x[0], 0.0}), U("reshape", {x[1], IValue::intList({})})});
        }},
        {"sum", {{2, 3, 2}}, [](V x) { return U("sum", {x[0]}); }},
        {"sum", {{2, 3, 2}}, [](V x) { return U("sum", {x[0], IValue::intList({1})}); }},
        {"sum", {{2, 3, 2}}, [](V x) { return U("sum", {x[0], IValue::intList({0, -1}), true}); }},
        {"mean", {{2, 3, 2}}, [](V x) { return U("mean", {x[0], IValue::intList({1})}); }},
        {"mean", {{2, 3}}, [](V x) { return U("mean", {x[0]}); }},
        {"view", {{2, 3}}, [](V x) { return U("view", {x[0], IValue::intList({3, 2})}); }},
        {"reshape", {{2, 3}}, [](V x) { return U("reshape", {x[0], IValue::intList({6})}); }},
        {"flatten", {{2, 3, 2}}, [](V x) { return U("flatten", {x[0], 1}); }},
        {"unsqueeze", {{2, 3}}, [](V x) { return U("unsqueeze", {x[0], 1}); }},
        {"squeeze", {{2, 1, 3}}, [](V x) { return U("squeeze", {x[0]}); }},
        {"t", {{2, 3}}, [](V x) { return U("t", {x[0]}); }},
        {"contiguous", {{2, 3}}, [](V x) { return U("contiguous", {U("t", {x[0]})}); }},
        {"clone", {{2, 3}}, [](V x) { return U("clone", {x[0]}); }},
        {"transpose", {{2, 3, 4}}, [](V x) { return U("transpose", {x[0], 0, 2}); }},
        {"permute", {{2, 3, 4}}, [](V x) { return U("permute", {x[0], IValue::intList({2, 0, 1})}); }},
        {"expand", {{3, 1}}, [](V x) { return U("expand", {x[0], IValue::intList({2, 3, 4})}); }},
        {"slice", {{4, 3}}, [](V x) { return U("slice", {x[0], 0, 1, 3}); }},
        {"slice", {{4, 3}}, [](V x) { return U("slice", {x[0], -1, -2, IValue()}); }},
        {"narrow", {{4, 3}}, [](V x) { return U("narrow", {x[0], 1, 1, 2}); }},
        {"select", {{4, 3}}, [](V x) { return U("select", {x[0], 0, -1}); }},
        // Overlapping windows of a view that starts inside its storage (each element read
        // up to twice), then of an expanded tensor (its elements share storage).
        {"as_strided", {{12}}, [](V x) {
            Tensor tail = U("narrow", {x[0], 0, 2, 10});
            Tensor windows = U("as_strided", {tail, IValue::intList({3, 4}), IValue::intList({2, 1}), int64_t{3}});
            Tensor shared = U("as_strided", {U("expand", {U("narrow", {x[0], 0, 0, 3}), IValue::intList({2, 3})}),
                                             IValue::intList({2, 2}), IValue::intList({0, 1}), int64_t{1}});
            return T("add", {U("sum", {T("mul", {windows, windows})}), U("sum", {T("mul", {shared, shared})})});
        }},
        {"cat", {{2, 3}, {1, 3}}, [](V x) { return U("cat", {IValue::list({x[0], x[1]}), 0}); }},
        {"stack", {{2, 3}, {2, 3}}, [](V x) { return U("stack", {IValue::list({x[0], x[1]}), -1}); }},
        {"mm", {{2, 3}, {3, 4}}, [](V x) { return U("mm", {x[0], x[1]}); }},
        {"matmul", {{2, 3}, {3, 4}}, [](V x) { return U("matmul", {x[0], x[1]}); }},
        // A batch of matrices times one matrix: its gradient is summed over the batch.
        {"matmul", {{2, 2, 3}, {3, 4}}, [](V x) { return U("matmul", {x[0], x[1]}); }},
        {"bmm", {{2, 2, 3}, {2, 3, 4}}, [](V x) { return U("bmm", {x[0], x[1]}); }},
        {"layer_norm", {{2, 3, 4}, {4}, {4}}, [](V x) { return U("layer_norm", {x[0], IValue::intList({4}), x[1], x[2]}); }},
        {"layer_norm", {{2, 3, 4}}, [](V x) { return U("layer_norm", {x[0], IValue::intList({3, 4})}); }},
        {"linear", {{2, 2, 3}, {4, 3}, {4}}, [](V x) { return U("linear", {x[0], x[1], x[2]}); }},
        {"softmax", {{2, 3, 2}}, [](V x) { return U("softmax", {x[0], 1}); }},
        {"log_softmax", {{3, 4}}, [](V x) { return U("log_softmax", {x[0], -1}); }},
        // Row 0 picks class 2 twice: its gradient is the sum of both.
        {"gather", {{3, 4}}, [](V x) { return U("gather", {x[0], 1, T("reshape", {longs({2, 2, 0, 3, 1, 1}), IValue::intList({3, 2})})}); }},
        {"embedding", {{5, 3}}, [](V x) { return U("embedding", {x[0], longs({4, 0, 4, 2})}); }},
        {"rsqrt", {{2, 3}}, [](V x) { return U("rsqrt", {x[0]}); }, true},
        {"var", {{2, 3, 4}}, [](V x) { return U("var", {x[0], IValue::intList({0, 2})}, {{"unbiased", false}}); }},
        {"var", {{2, 3}}, [](V x) { return U("var", {x[0]}); }},
        {"std", {{3, 4}}, [](V x) { return U("std", {x[0], IValue::intList({1}), true, true}); }},
        // Strided, padded, dilated, grouped; batched and not; conv1d as 2-D with height 1.
        {"conv2d", {{2, 2, 5, 6}, {3, 2, 3, 2}, {3}}, [](V x) {
            return U("conv2d", {x[0], x[1], x[2], IValue::intList({2, 1}), IValue::intList({1, 0}), IValue::intList({1, 2})});
        }},
        {"conv2d", {{4, 5, 5}, {2, 2, 2, 2}}, [](V x) {
            return U("conv2d", {x[0], x[1], IValue(), IValue::intList({1}), IValue::intList({1}), IValue::intList({1}), 2});
        }},
        {"conv1d", {{2, 2, 7}, {3, 2, 3}, {3}}, [](V x) { return U("conv1d", {x[0], x[1], x[2], IValue::intList({2}), IValue::intList({1})}); }},
        // Windows that do not overlap, and windows that overlap with padding.
        {"max_pool2d", {{2, 2, 4, 6}}, [](V x) { return U("max_pool2d", {x[0], IValue::intList({2, 2})}); }},
        {"max_pool2d", {{1, 5, 5}}, [](V x) {
            return U("max_pool2d", {x[0], IValue::intList({3, 3}), IValue::intList({2, 2}), IValue::intList({1, 1})});
        }},
        unary("square"), unary("reciprocal", true), unary("expm1"), unary("log1p", true), unary("exp2"), unary("log2", true),
        unary("lgamma", true),
        {"erfinv", {{2, 3}}, [](V x) { return U("erfinv", {U("mul", {x[0], 0.4})}); }},
        unary("tan"), unary("atan"), unary("sinh"), unary("cosh"), unary("asinh"), unary("erfc"), unary("log10", true), unary("trunc"),
        // Inside their domains: |x| < 1 for asin, acos and atanh, x > 1 for acosh.
        {"asin", {{2, 3}}, [](V x) { return U("asin", {U("mul", {x[0], 0.4})}); }},
        {"acos", {{2, 3}}, [](V x) { return U("acos", {U("mul", {x[0], 0.4})}); }},
        {"atanh", {{2, 3}}, [](V x) { return U("atanh", {U("mul", {x[0], 0.4})}); }},
        {"acosh", {{2, 3}}, [](V x) { return U("acosh", {U("add", {x[0], 0.7})}); }, true},
        unary("erf"), unary("silu"), unary("sign"), unary("floor"), unary("ceil"), unary("round"), unary("hardswish"),
        {"softplus", {{2, 3}}, [](V x) { return U("softplus", {x[0], 2.0, 1.5}); }},
        {"logaddexp", {{2, 3}, {3}}, [](V x) { return U("logaddexp", {x[0], x[1]}); }},
        {"clamp", {{2, 3}}, [](V x) { return U("clamp", {x[0], -1.0, 1.0}); }},
        {"clamp", {{2, 3}}, [](V x) { return U("clamp", {x[0], IValue(), 0.5}); }},
        {"clamp.Tensor", {{2, 3}, {2, 3}, {3}}, [](V x) { return U("clamp", {x[0], x[1], U("add", {x[2], 1.0})}); }},
        {"maximum", {{2, 3}, {3}}, [](V x) { return U("maximum", {x[0], x[1]}); }},
        {"minimum", {{2, 3}, {2, 3}}, [](V x) { return U("minimum", {x[0], x[1]}); }},
        {"max.other", {{2, 3}, {2, 3}}, [](V x) { return U("max", {x[0], x[1]}); }},
        {"min.other", {{2, 3}, {2, 3}}, [](V x) { return U("min", {x[0], x[1]}); }},
        {"remainder", {{2, 3}, {3}}, [](V x) { return U("remainder", {x[0], x[1]}); }, true},
        {"amax", {{2, 3, 4}}, [](V x) { return U("amax", {x[0], IValue::intList({0, 2})}); }},
        {"amin", {{2, 3}}, [](V x) { return U("amin", {x[0], IValue::intList({1}), true}); }},
        {"max", {{2, 3}}, [](V x) { return U("max", {x[0]}); }},
        {"min", {{2, 3}}, [](V x) { return U("min", {x[0]}); }},
        {"max.dim", {{2, 3, 2}}, [](V x) { return Values("max", {x[0], 1}); }},
        {"min.dim", {{2, 3}}, [](V x) { return Values("min", {x[0], -1, true}); }},
        {"prod", {{2, 3}}, [](V x) { return U("prod", {x[0]}); }},
        {"prod", {{2, 3}}, [](V x) { return U("prod", {x[0], IValue::intList({1}), true}); }},
        {"var.unbiased", {{2, 3}}, [](V x) { return U("var", {x[0], false}); }},
        {"std.unbiased", {{2, 3}}, [](V x) { return U("std", {x[0], true}); }},
        {"tril", {{3, 4}}, [](V x) { return U("tril", {x[0], 1}); }},
        {"triu", {{2, 3, 3}}, [](V x) { return U("triu", {x[0]}); }},
        {"cumsum", {{2, 3}}, [](V x) { return U("cumsum", {x[0], 1}); }},
        {"outer", {{3}, {4}}, [](V x) { return U("outer", {x[0], x[1]}); }},
        {"index_select", {{3, 4}}, [](V x) { return U("index_select", {x[0], 1, longs({3, 0, 3})}); }},
        {"flip", {{2, 3, 2}}, [](V x) { return U("flip", {x[0], IValue::intList({0, 2})}); }},
        {"repeat", {{2, 3}}, [](V x) { return U("repeat", {x[0], IValue::intList({2, 1, 2})}); }},
        {"topk", {{2, 5}}, [](V x) { return Values("topk", {x[0], 2}); }},
        // Vectors as one-row or one-column matrices.
        {"matmul", {{3}, {3}}, [](V x) { return U("matmul", {x[0], x[1]}); }},
        {"matmul", {{2, 3}, {3}}, [](V x) { return U("matmul", {x[0], x[1]}); }},
        {"matmul", {{3}, {2, 3, 4}}, [](V x) { return U("matmul", {x[0], x[1]}); }},
        {"linear", {{3}, {2, 3}}, [](V x) { return U("linear", {x[0], x[1]}); }},
        {"avg_pool2d", {{2, 2, 4, 6}}, [](V x) { return U("avg_pool2d", {x[0], IValue::intList({2, 3})}); }},
        // Overlapping windows over padding, counted and not, and clipped by ceil_mode.
        {"avg_pool2d", {{1, 5, 5}}, [](V x) {
            return U("avg_pool2d", {x[0], IValue::intList({3, 3}), IValue::intList({2, 2}), IValue::intList({1, 1}), true, false});
        }},
        {"avg_pool2d", {{1, 1, 5, 4}}, [](V x) {
            return U("avg_pool2d", {x[0], IValue::intList({2, 2}), IValue::intList({2, 1}), IValue::intList({1, 0}), true, true, 3});
        }},
        {"adaptive_avg_pool2d", {{2, 5, 7}}, [](V x) { return U("adaptive_avg_pool2d", {x[0], IValue::intList({3, 2})}); }},
        {"_scaled_dot_product_flash_attention_for_cpu", {{1, 2, 3, 4}, {1, 2, 5, 4}, {1, 2, 5, 3}},
         [](V x) { return U("_scaled_dot_product_flash_attention_for_cpu", {x[0], x[1], x[2]}); }},
        {"_scaled_dot_product_flash_attention_for_cpu", {{1, 1, 4, 2}, {1, 1, 4, 2}, {1, 1, 4, 2}},
         [](V x) { return U("_scaled_dot_product_flash_attention_for_cpu", {x[0], x[1], x[2], true}, {{"scale", 0.3}}); }},
        {"to.dtype", {{2, 3}}, [](V x) { return U("to", {x[0], IValue(DType::Float64), false, true}); }},
        // Overwriting ops: the old values get none; copy_'s source, broadcast, gets it.
        {"copy_", {{2, 3}, {3}}, [](V x) { return U("copy_", {U("mul", {x[0], 1.0}), x[1]}); }},
        {"fill_", {{2, 3}}, [](V x) { return U("add", {U("fill_", {U("mul", {x[0], 1.0}), 2.0}), x[0]}); }},
        {"zero_", {{2, 3}}, [](V x) { return U("add", {U("zero_", {U("mul", {x[0], 1.0})}), x[0]}); }},
        // Dropout that draws nothing: the input (AOT Autograd differentiates the call).
        {"dropout", {{2, 3}}, [](V x) { return U("dropout", {U("mul", {x[0], 2.0}), 0.0, true}); }},
        {"dropout", {{2, 3}}, [](V x) { return U("dropout", {U("mul", {x[0], 2.0}), 0.5, false}); }},
        // Parts used in another order, one not at all (its gradient is zeros).
        {"unbind", {{3, 2, 2}}, [](V x) {
            auto parts = call("unbind", {x[0], 1}).toSequence()->items;
            return U("stack", {IValue::list({parts[1], U("mul", {parts[0], 2.0})})});
        }},
        // A slice with a step: rows 1, 4 (the last run cut where self ends), then columns 0, 2
        // counted from the end.
        {"slice", {{6, 4}}, [](V x) { return U("slice", {U("slice", {x[0], 0, 1, 6, 3}), -1, -4, int64_t{4}, 2}); }},
    };
}

TEST(AutogradGradcheck, EveryDerivativeMatchesCentralDifferences) {
    uint64_t seed = 42;
    for (const GradCase& c : gradCases()) try {
        SCOPED_TRACE(c.op);
        std::vector<Tensor> inputs;
        for (const Shape& shape : c.shapes) inputs.push_back(randomInput(shape, c.positive, seed));
        Tensor weight = randomInput(c.run(inputs).sizes(), false, seed);

        for (const Tensor& x : inputs) x.setRequiresGrad(true);
        Tensor out = c.run(inputs);
        ASSERT_FALSE(out.isLeaf());
        Tensor loss = T("sum", {T("mul", {out, weight})});
        runBackward({loss}, {implicitGradient(loss)}, {});

        for (size_t i = 0; i < inputs.size(); ++i) {
            SCOPED_TRACE("input " + std::to_string(i));
            ASSERT_TRUE(inputs[i].impl()->autograd.grad);
            Tensor analytic(inputs[i].impl()->autograd.grad);
            ASSERT_EQ(analytic.sizes(), inputs[i].sizes());
            EXPECT_EQ(analytic.dtype(), DType::Float64);
            const double eps = 1e-6;
            for (int64_t k = 0; k < inputs[i].numel(); ++k) {
                std::vector<Tensor> plus, minus;
                for (const Tensor& x : inputs) {
                    plus.push_back(T("clone", {x}));
                    minus.push_back(T("clone", {x}));
                }
                plus[i].writeDouble(k, inputs[i].readDouble(k) + eps);
                minus[i].writeDouble(k, inputs[i].readDouble(k) - eps);
                double numeric = (weightedSum(c.run(plus), weight) - weightedSum(c.run(minus), weight)) / (2 * eps);
                EXPECT_NEAR(analytic.readDouble(k), numeric, 1e-5 * std::max(1.0, std::abs(numeric))) << "element " << k;
            }
        }
    } catch (const ScriptError& e) {
        ADD_FAILURE() << c.op << ": " << e.what();
    }
}

// The padding row of an embedding gets no gradient, however often it is looked up.
TEST(AutogradGradcheck, AnEmbeddingsPaddingRowGetsNoGradient) {
    Tensor weight = floats({1, 2, 3, 4, 5, 6}, {3, 2}, DType::Float64);
    weight.setRequiresGrad(true);
    Tensor loss = T("sum", {T("embedding", {weight, longs({1, 2, 1, 0}), 1})});
    runBackward({loss}, {implicitGradient(loss)}, {});
    expectNear(Tensor(weight.impl()->autograd.grad), {1, 1, 0, 0, 1, 1});
}

// A product's gradient where its group holds zeros: the product of the others (rows with
// one zero, two zeros, one zero).
TEST(AutogradGradcheck, AProductsGradientAtZeros) {
    Tensor x = floats({0, 2, 3, 0, 5, 0, 4, 0, 7}, {3, 3}, DType::Float64);
    x.setRequiresGrad(true);
    Tensor loss = T("sum", {T("prod", {x, IValue::intList({1})})});
    runBackward({loss}, {implicitGradient(loss)}, {});
    expectNear(Tensor(x.impl()->autograd.grad), {6, 0, 0, 0, 0, 0, 0, 28, 0});
}

// An in-place op whose derivative reads no values (add_) saves `self`, which then points at
// the op's node: saved with its history the node held itself, and the graph leaked (the
// script fuzzer's LeakSanitizer found it: fuzz/corpus/script_interpreter/leak-*). Its
// gradient still flows through `self`'s earlier history.
TEST(AutogradGradcheck, AnInplaceNodeDoesNotKeepItsOwnResultAlive) {
    Tensor x = floats({1, 2}, {2}, DType::Float64);
    x.setRequiresGrad(true);
    std::weak_ptr<AutogradNode> node;
    {
        Tensor a = T("mul", {x, IValue(3.0)});
        T("add_", {a, IValue(1.0)});
        node = a.impl()->autograd.gradFn;
        ASSERT_EQ(node.lock()->name, "AddBackward0");
        Tensor loss = T("sum", {a});
        runBackward({loss}, {implicitGradient(loss)}, {});
        expectNear(Tensor(x.impl()->autograd.grad), {3, 3});
    }
    EXPECT_TRUE(node.expired());
}

// Conversions hand the gradient back converted to the input's dtype (the float64 cases
// above cannot tell a float32 round trip from rounding); one that changes nothing records nothing.
const char* const kConversions[] = {"float", "half", "bfloat16", "double", "type_as", "to.device", "to.other", "cpu"};

TEST(AutogradGradcheck, AConversionsGradientComesBackInTheInputsDtype) {
    for (const char* op : kConversions) {
        SCOPED_TRACE(op);
        const bool toDouble = std::string_view(op) == "double";
        Tensor x = floats({1.5, -2, 0.25}, {3}, toDouble ? DType::Float32 : DType::Float64);
        x.setRequiresGrad(true);
        Tensor other = floats({1}, {1}, DType::Float32);
        IValueList args = {x};
        if (std::string_view(op) == "type_as" || std::string_view(op) == "to.other") args.push_back(other);
        if (std::string_view(op) == "to.device") args = {x, IValue(Device::cpu()), IValue(DType::Float32)};
        Tensor out = call(op, args).toTensor();
        if (std::string_view(op) == "cpu") {  // already there: x itself
            EXPECT_EQ(out.impl(), x.impl());
            EXPECT_TRUE(x.isLeaf());
            continue;
        }
        Tensor loss = T("sum", {T("mul", {out, 3.0})});
        runBackward({loss}, {implicitGradient(loss)}, {});
        Tensor g(x.impl()->autograd.grad);
        EXPECT_EQ(g.dtype(), x.dtype());
        expectNear(g, {3, 3, 3});
    }
}

// A new derivative gets a case above: the ops checked are exactly those with a derivative
// (cuda's, a conversion, needs a GPU to run).
TEST(AutogradGradcheck, EveryOpWithADerivativeIsChecked) {
    std::set<std::string> checked(std::begin(kConversions), std::end(kConversions)), differentiable;
    checked.insert("cuda");
    for (const GradCase& c : gradCases()) checked.insert(c.op);
    for (const std::string& name : OpRegistry::instance().allNames())
        if (OpRegistry::instance().find(name)->derivative) differentiable.insert(name);
    EXPECT_EQ(checked, differentiable);
}

}  // namespace
}  // namespace fusescope::test
