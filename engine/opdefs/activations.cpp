// Activations of real models, each op defined whole in one place: schema, shapes, eager
// kernel and lowering (from loop-IR math every renderer already spells, so the C++ and
// CUDA code generators need nothing new). None decomposes; each backward node is named
// after the op (SoftplusBackward0, ...) and its derivative is written with ops.
//
//   softplus(x, beta, threshold)  x where x * beta > threshold, else log1p(exp(x * beta)) / beta
//   hardswish(x)                  x * min(max(x + 3, 0), 6) / 6
//   logaddexp(a, b)               max(a, b) + log1p(exp(-|a - b|)); a where a == b = +-inf

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "autograd/derivative_ops.h"
#include "core/error.h"
#include "lower/elementwise_rules.h"
#include "opdefs/op_families.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

using K = LoopOpKind;

// The result dtype of a floating-only op, as PyTorch's CPU kernels refuse other inputs.
DType floatingResult(const char* op, const std::vector<Tensor>& inputs) {
    DType t = resultType(inputs);
    if (!isFloating(t))
        throw ScriptError("RuntimeError", fmt::format("\"{}_cpu\" not implemented for '{}'", op, dtypeScalarName(t)));
    return t;
}

// A definition whose lowering computes in the output dtype from the named tensor inputs.
OpDef pointwiseOp(const char* name, std::string schema, OpFlags flags, std::vector<std::string> inputs,
                  std::function<void(const BoundArgs&, const Tensor& out, const std::vector<Tensor>& in)> kernel,
                  std::function<int(LoopBodyBuilder&, const BoundArgs&, const std::vector<int>& x, DType t)> element) {
    auto gather = [inputs](const BoundArgs& a) {
        std::vector<Tensor> in;
        for (const auto& n : inputs) in.push_back(a.tensor(n));
        return in;
    };
    OpDef d = makeOp(
        name, std::move(schema), flags,
        [name, gather](const BoundArgs& a) {
            std::vector<Tensor> in = gather(a);
            return pointwiseMeta(in, floatingResult(name, in));
        },
        [gather, kernel](const BoundArgs& a, const Tensor& out) { kernel(a, out, gather(a)); });
    lowerWith(d, [inputs, element](LoweringContext& c, const LoweringArgs& a) {
        std::vector<LValue> values;
        for (const auto& n : inputs) values.push_back(a.tensor(n));
        DType out = c.meta().dtype;
        // The element function runs later, while the consumer's loop body is built.
        return std::vector<LValue>{elementwise(c, values, out, out, [bound = a.bound(), element, out](LoopBodyBuilder& b, const std::vector<int>& x) {
            return element(b, bound, x, out);
        })};
    });
    return d;
}

double softplus(double x, double beta, double threshold) {
    return x * beta > threshold ? x : std::log1p(std::exp(x * beta)) / beta;
}

double hardswish(double x) { return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0; }

double logaddexp(double a, double b) {
    if (std::isinf(a) && a == b) return a;
    return std::max(a, b) + std::log1p(std::exp(-std::abs(a - b)));
}

// softplus: sigmoid(beta x) below the threshold, 1 above; hardswish: 0 below -3, 1 above
// 3, x/3 + 1/2 between; logaddexp: each argument's share exp(arg - result).
void registerActivationDerivatives(OpRegistry& r) {
    using D = const DerivativeArgs&;
    differentiateWith(r.definition("softplus"), [](D d) {
        const Tensor& x = d.input("self");
        Tensor scaled = grad::mul(x, d.args.number("beta"));
        Tensor slope = grad::call("where", {grad::call("gt", {scaled, d.args.number("threshold")}), 1.0, grad::call("sigmoid", {scaled})});
        return ArgumentGradients{{"self", grad::mul(d.grad, slope)}};
    });
    differentiateWith(r.definition("hardswish"), [](D d) {
        const Tensor& x = d.input("self");
        Tensor middle = grad::call("add", {grad::mul(x, 1.0 / 3.0), 0.5});
        Tensor slope = grad::call("where", {grad::call("lt", {x, -3.0}), 0.0, grad::call("where", {grad::call("le", {x, 3.0}), middle, 1.0})});
        return ArgumentGradients{{"self", grad::mul(d.grad, slope)}};
    });
    differentiateWith(r.definition("logaddexp"), [](D d) {
        ArgumentGradients grads;
        for (const char* name : {"self", "other"})
            if (d.wants(name))
                grads.emplace_back(name, grad::fitTo(grad::mul(d.grad, grad::call("exp", {grad::sub(d.input(name), d.out())})), d.input(name)));
        return grads;
    });
}

}  // namespace

void registerActivationOps(OpRegistry& r) {
    const OpFlags functionalOnly{false, false, true};
    r.add(pointwiseOp(
        "softplus", "softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", functionalOnly, {"self"},
        [](const BoundArgs& a, const Tensor& out, const std::vector<Tensor>& in) {
            double beta = a.number("beta"), threshold = a.number("threshold");
            pointwiseApply(out, in, out.dtype(), [=](const double* v) { return softplus(v[0], beta, threshold); }, nullptr);
        },
        [](LoopBodyBuilder& b, const BoundArgs& a, const std::vector<int>& x, DType t) {
            int scaled = b.call(K::Mul, {x[0], b.constant(a.number("beta"), t)}, t);
            int soft = b.call(K::TrueDiv, {b.call(K::Log1p, {b.call(K::Exp, {scaled}, t)}, t), b.constant(a.number("beta"), t)}, t);
            int linear = b.call(K::Gt, {scaled, b.constant(a.number("threshold"), t)}, DType::Bool);
            return b.call(K::Where, {linear, x[0], soft}, t);
        }));
    r.add(pointwiseOp(
        "hardswish", "hardswish(Tensor self) -> Tensor", functionalOnly, {"self"},
        [](const BoundArgs&, const Tensor& out, const std::vector<Tensor>& in) {
            pointwiseApply(out, in, out.dtype(), [](const double* v) { return hardswish(v[0]); }, nullptr);
        },
        [](LoopBodyBuilder& b, const BoundArgs&, const std::vector<int>& x, DType t) {
            int shifted = b.call(K::Add, {x[0], b.constant(3, t)}, t);
            int gate = b.call(K::Minimum, {b.call(K::Maximum, {shifted, b.constant(0, t)}, t), b.constant(6, t)}, t);
            return b.call(K::TrueDiv, {b.call(K::Mul, {x[0], gate}, t), b.constant(6, t)}, t);
        }));
    r.add(pointwiseOp(
        "logaddexp", "logaddexp(Tensor self, Tensor other) -> Tensor", OpFlags{}, {"self", "other"},
        [](const BoundArgs&, const Tensor& out, const std::vector<Tensor>& in) {
            pointwiseApply(out, in, out.dtype(), [](const double* v) { return logaddexp(v[0], v[1]); }, nullptr);
        },
        [](LoopBodyBuilder& b, const BoundArgs&, const std::vector<int>& x, DType t) {
            int distance = b.call(K::Abs, {b.call(K::Sub, {x[0], x[1]}, t)}, t);
            int tail = b.call(K::Log1p, {b.call(K::Exp, {b.call(K::Neg, {distance}, t)}, t)}, t);
            int sum = b.call(K::Add, {b.call(K::Maximum, {x[0], x[1]}, t), tail}, t);
            int sameInfinity = b.call(K::LogicalAnd, {b.call(K::IsInf, {x[0]}, DType::Bool), b.call(K::Eq, {x[0], x[1]}, DType::Bool)},
                                      DType::Bool);
            return b.call(K::Where, {sameInfinity, x[0], sum}, t);
        }));
    registerActivationDerivatives(r);
}

}  // namespace fusescope
