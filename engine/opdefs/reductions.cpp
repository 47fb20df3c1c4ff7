// Reductions: sum mean prod amax amin var std argmax argmin all any, and max/min with their
// full, per-dim (values, indices) and elementwise overloads. The eager kernels share
// reductionMeta for output metadata and reduceRows for iteration; each op lowers to a
// Reduction buffer, mean also to sum / count, and mean, var and std decompose.

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "autograd/derivative_ops.h"
#include "core/error.h"
#include "lower/elementwise_rules.h"
#include "opdefs/op_families.h"
#include "ops/cascade_sum.h"
#include "ops/kernel_support.h"
#include "ops/wrapping_int.h"

namespace fusescope {

namespace {

std::vector<int64_t> dimsArg(const BoundArgs& a) {
    const IValue& d = a["dim"];
    if (d.isNone()) return {};
    return d.toIntList();
}

struct ReductionShape {
    std::vector<bool> mask;
    ResultMeta meta;
};

ReductionShape reductionMeta(const BoundArgs& a, DType outType) {
    const Tensor& self = a.tensor("self");
    std::vector<bool> mask = reductionMask(dimsArg(a), self.dim());
    bool keepdim = a.flag("keepdim");
    return {mask, contiguousMeta(reducedShape(self.sizes(), mask, keepdim), outType)};
}

void storeAt(const Tensor& out, int64_t index, double v) {
    storeDouble(bytePtr(out) + index * static_cast<int64_t>(dtypeSize(out.dtype())), out.dtype(), v);
}
void storeIntAt(const Tensor& out, int64_t index, int64_t v) {
    storeInt(bytePtr(out) + index * static_cast<int64_t>(dtypeSize(out.dtype())), out.dtype(), v);
}

// A reduction op: outType from the input dtype (and args); `lowering` (none: it decomposes)
// compiles it; run fills the contiguous output.
using ReduceRun = std::function<void(const BoundArgs&, const Tensor& self, const std::vector<bool>& mask, const Tensor& out)>;
OpDef& addReduction(OpRegistry& r, std::string name, std::string schema, std::function<DType(const BoundArgs&, DType)> outType,
                    LoweringRule lowering, ReduceRun run) {
    auto meta = [outType](const BoundArgs& a) { return reductionMeta(a, outType(a, a.tensor("self").dtype())).meta; };
    OpDef& op = r.add(makeOp(std::move(name), std::move(schema), {}, meta, [outType, run](const BoundArgs& a, const Tensor& out) {
        const Tensor& self = a.tensor("self");
        run(a, self, reductionMeta(a, out.dtype()).mask, out);
    }));
    return lowering ? lowerWith(op, std::move(lowering)) : op;
}

DType withDtypeArg(const BoundArgs& a, DType t) { return a["dtype"].isNone() ? t : a["dtype"].toDType(); }

// sum/prod: bool and int inputs accumulate in int64.
DType accumulateType(const BoundArgs& a, DType t) { return withDtypeArg(a, isFloating(t) ? t : DType::Int64); }

DType floatOnly(const char* op, const BoundArgs& a, DType t) {
    DType out = withDtypeArg(a, t);
    if (!isFloating(out))
        throw ScriptError("RuntimeError", fmt::format("{}(): could not infer output dtype. Input dtype must be either a floating point or "
                                                      "complex dtype. Got: {}",
                                                      op, dtypeScalarName(out)));
    return out;
}

// A fold over each row: in double for floating outputs, else in int64 (wrapping, as ATen's).
template <class FloatFold>
ReduceRun foldRun(double initD, int64_t initI, FloatFold foldFloat, int64_t (*foldInt)(int64_t, int64_t)) {
    return [=](const BoundArgs&, const Tensor& self, const std::vector<bool>& mask, const Tensor& out) {
        if (isFloating(out.dtype()))
            reduceRows<double>(self, mask, [&](int64_t o, std::span<const double> v) {
                double acc = initD;
                for (double x : v) acc = foldFloat(acc, x);
                storeAt(out, o, acc);
            });
        else
            reduceRows<int64_t>(self, mask, [&](int64_t o, std::span<const int64_t> v) {
                int64_t acc = initI;
                for (int64_t x : v) acc = foldInt(acc, x);
                storeIntAt(out, o, acc);
            });
    };
}

// As PyTorch: a reduction without an identity needs something to reduce in each dim it
// reduces (given dims), or anything at all (no dim given); an empty tensor reduced over
// non-empty dims gives an empty result.
void requireNonEmpty(const char* op, const Tensor& self, const std::vector<bool>& mask, bool dimGiven) {
    if (!dimGiven) {
        if (self.numel() == 0)
            throw ScriptError("RuntimeError", fmt::format("{}(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                                                          "reduction dim with the 'dim' argument.",
                                                          op));
        return;
    }
    for (std::size_t d = 0; d < mask.size(); ++d)
        if (mask[d] && self.sizes()[d] == 0)
            throw ScriptError("IndexError", fmt::format("{}(): Expected reduction dim {} to have non-zero size.", op, d));
}

// Whether a reduction call names its dims (amax's dim=[] and argmax's dim=None do not).
bool dimGiven(const BoundArgs& a) {
    const IValue& dim = a["dim"];
    return !dim.isNone() && !(dim.isSequence() && dim.toSequence()->items.empty());
}

// Index of the max (or min) of v; the first NaN wins, ties keep the first index.
template <class T>
std::size_t extremeIndex(std::span<const T> v, bool isMax) {
    std::size_t best = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if constexpr (std::is_floating_point_v<T>) {
            if (std::isnan(v[i])) return i;
        }
        if (isMax ? v[i] > v[best] : v[i] < v[best]) best = i;
    }
    return best;
}

// Writes the extreme value (and optionally its index) for each row.
void extremeRun(const char* op, bool isMax, const Tensor& self, const std::vector<bool>& mask, bool hasDim, const Tensor* values,
                const Tensor* indices) {
    requireNonEmpty(op, self, mask, hasDim);
    if (isFloating(self.dtype())) {
        reduceRows<double>(self, mask, [&](int64_t o, std::span<const double> v) {
            std::size_t i = extremeIndex(v, isMax);
            if (values) storeAt(*values, o, v[i]);
            if (indices) storeIntAt(*indices, o, static_cast<int64_t>(i));
        });
    } else {
        reduceRows<int64_t>(self, mask, [&](int64_t o, std::span<const int64_t> v) {
            std::size_t i = extremeIndex(v, isMax);
            if (values) storeIntAt(*values, o, v[i]);
            if (indices) storeIntAt(*indices, o, static_cast<int64_t>(i));
        });
    }
}

double varianceCorrection(const BoundArgs& a) {
    const IValue& c = a["correction"];
    const IValue& u = a["unbiased"];
    if (!c.isNone()) return c.toDouble();
    if (!u.isNone()) return u.toBool() ? 1.0 : 0.0;
    return 1.0;
}

ReduceRun varianceRun(bool takeSqrt) {
    return [takeSqrt](const BoundArgs& a, const Tensor& self, const std::vector<bool>& mask, const Tensor& out) {
        double correction = varianceCorrection(a);
        reduceRows<double>(self, mask, [&](int64_t o, std::span<const double> v) {
            double mean = 0;
            for (double x : v) mean += x;
            mean /= static_cast<double>(v.size());
            double ss = 0;
            for (double x : v) ss += (x - mean) * (x - mean);
            double var = ss / std::max(0.0, static_cast<double>(v.size()) - correction);
            storeAt(out, o, takeSqrt ? std::sqrt(var) : var);
        });
    };
}

DType varType(const char* op, const BoundArgs&, DType t) {
    if (!isFloating(t)) throw ScriptError("RuntimeError", fmt::format("{} only support floating point and complex dtypes", op));
    return t;
}

// ---- lowerings: each a Reduction buffer ------------------------------------------------

// sum / amax / amin / prod / any / all over `dim` (none or empty: every dim).
LoweringRule reduction(ReductionKind type) {
    return [type](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        return {c.reduce(a.tensor("self"), dimsArg(a.bound()), a.bound().flag("keepdim"), type, c.meta().dtype)};
    };
}

// argmax / argmin over one dim, or over the flattened tensor when dim is None.
LoweringRule argReduction(ReductionKind type) {
    return [type](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        LValue self = a.tensor("self");
        const IValue& dim = a.bound()["dim"];
        if (dim.isNone()) {
            std::vector<IndexExpr> flat{product(self.sizes)};
            LValue whole = c.lazy(flat, self.dtype,
                                  [self](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                                      std::vector<IndexExpr> strides = contiguousStrides(self.sizes);
                                      std::vector<IndexExpr> at;
                                      for (size_t k = 0; k < self.sizes.size(); ++k) {
                                          IndexExpr q = IndexExpr::floorDiv(index[0], strides[k], b.ranges());
                                          at.push_back(k == 0 ? q : IndexExpr::mod(q, self.sizes[k], b.ranges()));
                                      }
                                      return self.load(b, at);
                                  },
                                  {self});
            return {c.reduce(whole, {0}, false, type, DType::Int64)};
        }
        return {c.reduce(self, {dim.toInt()}, a.bound().flag("keepdim"), type, DType::Int64)};
    };
}

// max.dim / min.dim: (values, indices).
LoweringRule valuesAndIndices(ReductionKind valueType, ReductionKind indexType) {
    return [valueType, indexType](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        LValue self = a.tensor("self");
        std::vector<int64_t> dim{a.bound().integer("dim")};
        bool keepdim = a.bound().flag("keepdim");
        return {c.reduce(self, dim, keepdim, valueType, self.dtype), c.reduce(self, dim, keepdim, indexType, DType::Int64)};
    };
}

// mean: the sum divided by the count of reduced elements.
std::vector<LValue> lowerMean(LoweringContext& c, const LoweringArgs& a) {
    LValue self = a.tensor("self");
    std::vector<int64_t> dims = dimsArg(a.bound());
    DType out = c.meta().dtype;
    LValue sum = c.reduce(self, dims, a.bound().flag("keepdim"), ReductionKind::Sum, out);
    IndexExpr count(1);
    if (dims.empty()) {
        count = product(self.sizes);
    } else {
        for (int64_t d : dims) count = count * self.sizes[normalizeDim(d, self.sizes.size())];
    }
    // A dynamic count (s0) is read as an index expression of the kernel's size parameters.
    return {c.lazy(sum.sizes, out,
                   [sum, count, out](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                       auto n = count.constant();
                       int divisor = n ? b.constant(static_cast<double>(*n), out) : b.toDtype(b.indexExpr(count, DType::Int64), out);
                       return b.call(LoopOpKind::TrueDiv, {sum.load(b, index), divisor}, out);
                   },
                   {sum})};
}

// var and std over a symbolic count of elements (s0), which their decomposition cannot divide
// by: the mean as the sum over the count (a keepdim reduction), the centred squares summed,
// then over the count less the correction (at least 0, as eager), the count an index
// expression of the kernel's size parameters. Computed in float32 (float64 for double).
LoweringRule lowerVariance(bool takeSqrt) {
    return [takeSqrt](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        const BoundArgs& bound = a.bound();
        // The legacy (self, unbiased) overload has no dim, keepdim or correction.
        auto given = [&](std::string_view name) {
            bool has = std::find(bound.names.begin(), bound.names.end(), name) != bound.names.end();
            return has ? bound[name] : IValue(None{});
        };
        LValue self = a.tensor("self");
        std::vector<int64_t> dims = given("dim").isNone() ? std::vector<int64_t>{} : given("dim").toIntList();
        bool keepdim = !given("keepdim").isNone() && given("keepdim").toBool();
        DType out = c.meta().dtype;
        DType compute = out == DType::Float64 ? DType::Float64 : DType::Float32;
        const IValue correction = given("correction"), unbiased = given("unbiased");
        double corrected = !correction.isNone() ? correction.toDouble() : unbiased.isNone() || unbiased.toBool() ? 1.0 : 0.0;
        std::vector<bool> reduced(self.sizes.size(), dims.empty());
        for (int64_t d : dims) reduced[static_cast<size_t>(normalizeDim(d, self.sizes.size()))] = true;
        IndexExpr count(1);
        for (size_t d = 0; d < reduced.size(); ++d)
            if (reduced[d]) count = count * self.sizes[d];
        auto countOp = [count, compute](LoopBodyBuilder& b) {
            auto n = count.constant();
            return n ? b.constant(static_cast<double>(*n), compute) : b.toDtype(b.indexExpr(count, DType::Int64), compute);
        };
        LValue sum = c.reduce(self, dims, true, ReductionKind::Sum, compute);
        LValue squares = c.lazy(
            self.sizes, compute,
            [self, sum, reduced, countOp, compute](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                std::vector<IndexExpr> row = index;
                for (size_t d = 0; d < row.size(); ++d)
                    if (reduced[d]) row[d] = IndexExpr(0);
                int x = self.load(b, index);
                if (self.dtype != compute) x = b.toDtype(x, compute);
                int mean = b.call(LoopOpKind::TrueDiv, {sum.load(b, row), countOp(b)}, compute);
                int centred = b.call(LoopOpKind::Sub, {x, mean}, compute);
                return b.call(LoopOpKind::Mul, {centred, centred}, compute);
            },
            {self, sum});
        LValue total = c.reduce(squares, dims, keepdim, ReductionKind::Sum, compute);
        return {c.lazy(total.sizes, out,
                       [total, countOp, corrected, compute, out, takeSqrt](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                           int n = b.call(LoopOpKind::Sub, {countOp(b), b.constant(corrected, compute)}, compute);
                           n = b.call(LoopOpKind::Maximum, {n, b.constant(0, compute)}, compute);
                           int v = b.call(LoopOpKind::TrueDiv, {total.load(b, index), n}, compute);
                           if (takeSqrt) v = b.call(LoopOpKind::Sqrt, {v}, compute);
                           return out == compute ? v : b.toDtype(v, out);
                       },
                       {total})};
    };
}

// ---- decompositions: mean as sum / count, var and std through the centered sum of squares

std::optional<Argument> decomposeMean(Rewrite& r) {
    Argument x = r.tensor("self");
    TensorMeta m = r.meta(x);
    std::vector<int64_t> dims = reducedDims(r.bound["dim"], m.sizes.size());
    std::optional<int64_t> count = staticCount(r, m, dims);
    if (!count) return std::nullopt;
    Argument sum = reduce(r, "sum", inComputeType(r, x), dims, r.bound.flag("keepdim"));
    return r.call("div", {sum, constant(*count)});
}

// var and std, including their (self, unbiased) overloads.
std::function<std::optional<Argument>(Rewrite&)> decomposeVariance(bool takeSqrt) {
    return [takeSqrt](Rewrite& r) -> std::optional<Argument> {
        Argument x = r.tensor("self");
        TensorMeta m = r.meta(x);
        std::vector<int64_t> dims = reducedDims(r.valueOr("dim", None{}), m.sizes.size());
        std::optional<int64_t> count = staticCount(r, m, dims);
        if (!count) return std::nullopt;
        IValue correction = r.valueOr("correction", None{}), unbiased = r.valueOr("unbiased", None{});
        double c = !correction.isNone() ? correction.toDouble() : unbiased.isNone() || unbiased.toBool() ? 1.0 : 0.0;
        double denominator = std::max(0.0, static_cast<double>(*count) - c);
        IValue divisor = std::floor(denominator) == denominator ? IValue(static_cast<int64_t>(denominator)) : IValue(denominator);

        Centered centeredX = centered(r, inComputeType(r, x), dims, *count, r.valueOr("keepdim", false).toBool());
        Argument var = r.call("div", {centeredX.sumOfSquares, constant(divisor)});
        return takeSqrt ? r.call("sqrt", {var}) : var;
    };
}

// max/min: full reduction, (values, indices) along a dim, or elementwise against another tensor.
void addMaxMin(OpRegistry& r, const std::string& name, bool isMax) {
    ReductionKind kind = isMax ? ReductionKind::Max : ReductionKind::Min;
    OpDef& whole = r.add(makeOp(name, name + "(Tensor self) -> Tensor", {},
                                [](const BoundArgs& a) { return contiguousMeta({}, a.tensor("self").dtype()); },
                                [name, isMax](const BoundArgs& a, const Tensor& out) {
                                    const Tensor& self = a.tensor("self");
                                    extremeRun(name.c_str(), isMax, self, std::vector<bool>(self.sizes().size(), true), false, &out, nullptr);
                                }));
    lowerWith(whole, [kind](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        return {c.reduce(a.tensor("self"), {}, false, kind, c.meta().dtype)};
    });
    auto dimMetas = [](const BoundArgs& a) {
        const Tensor& self = a.tensor("self");
        std::vector<bool> mask = reductionMask({a.integer("dim")}, self.dim());
        Shape shape = reducedShape(self.sizes(), mask, a.flag("keepdim"));
        return std::make_pair(contiguousMeta(shape, self.dtype()), contiguousMeta(shape, DType::Int64));
    };
    OpDef d;
    d.name = name + ".dim";
    d.schema = d.name + "(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)";
    d.infer = [dimMetas](const BoundArgs& a) {
        auto [v, i] = dimMetas(a);
        return IValue::tuple({metaTensor(v), metaTensor(i)});
    };
    d.kernel = [dimMetas, name, isMax](const BoundArgs& a) {
        auto [vm, im] = dimMetas(a);
        Tensor values = allocate(vm), indices = allocate(im);
        const Tensor& self = a.tensor("self");
        extremeRun(name.c_str(), isMax, self, reductionMask({a.integer("dim")}, self.dim()), true, &values, &indices);
        return IValue::tuple({values, indices});
    };
    lowerWith(r.add(std::move(d)), valuesAndIndices(kind, isMax ? ReductionKind::ArgMax : ReductionKind::ArgMin));
    // max(a, b) is maximum(a, b).
    OpDef other;
    other.name = name + ".other";
    other.schema = other.name + "(Tensor self, Tensor other) -> Tensor";
    const OpDef* elementwise = r.find(isMax ? "maximum" : "minimum");
    other.infer = elementwise->infer;
    other.kernel = elementwise->kernel;
    other.derivative = elementwise->derivative;
    OpDef& pairwise = r.add(std::move(other));
    lowerWith(pairwise, binaryRule(isMax ? LoopOpKind::Maximum : LoopOpKind::Minimum));
    gradFnNamed(pairwise, isMax ? "MaximumBackward0" : "MinimumBackward0");
}

}  // namespace

namespace {

// A sum's gradient spreads back over what it summed; a mean's, divided by how many.
void registerReductionDerivatives(OpRegistry& r) {
    // A tensor of the result's shape (its gradient, the result) spread over the input's.
    auto spread = [](const DerivativeArgs& d, const Tensor& t) {
        std::vector<int64_t> dims = d.args["dim"].isNone() ? std::vector<int64_t>{} : d.args.ints("dim");
        return grad::unreduce(t, d.input("self").sizes(), dims, d.args.flag("keepdim"));
    };
    differentiateWith(r.definition("sum"), [spread](const DerivativeArgs& d) {
        return ArgumentGradients{{"self", grad::fitTo(spread(d, d.grad), d.like("self"))}};
    }, Saved::SizesOnly);
    differentiateWith(r.definition("mean"), [spread](const DerivativeArgs& d) {
        // Divided by the count, as PyTorch's mean_backward does: an int, which a dynamic
        // graph's backward computes from its sizes (a float 1/count it could not).
        const Tensor& self = d.input("self");
        int64_t count = self.numel() == 0 ? 1 : self.numel() / std::max<int64_t>(1, d.out().numel());
        return ArgumentGradients{{"self", grad::fitTo(grad::call("div", {spread(d, d.grad), IValue(count)}), self)}};
    }, Saved::SizesOnly);
    // var: 2 (x - mean) / (n - correction) times the spread gradient; std: that over 2 std.
    for (bool takeSqrt : {false, true})
        differentiateWith(r.definition(takeSqrt ? "std" : "var"), [spread, takeSqrt](const DerivativeArgs& d) {
            const Tensor& self = d.input("self");
            double count = static_cast<double>(self.numel()) / static_cast<double>(std::max<int64_t>(1, d.out().numel()));
            Tensor centered = grad::sub(self, grad::call("mean", {self, d.args["dim"], true}));
            Tensor scaled = grad::mul(centered, 2.0 / std::max(0.0, count - varianceCorrection(d.args)));
            Tensor g = spread(d, d.grad);
            if (takeSqrt) g = grad::div(g, grad::mul(spread(d, d.out()), 2.0));
            return ArgumentGradients{{"self", grad::fitTo(grad::mul(g, scaled), self)}};
        });
    // amax/amin and max()/min(): the gradient shared evenly by the elements equal to the result.
    auto evenly = [](const DerivativeArgs& d, std::vector<int64_t> dims, bool keepdim) {
        const Tensor& self = d.input("self");
        Tensor picked = grad::call("to", {grad::call("eq", {self, grad::unreduce(d.out(), self.sizes(), dims, keepdim)}), d.grad.dtype()});
        Tensor count = dims.empty() ? grad::expand(grad::call("sum", {picked}), self.sizes())
                                    : grad::unreduce(grad::call("sum", {picked, IValue::intList(dims), keepdim}), self.sizes(), dims, keepdim);
        return ArgumentGradients{{"self", grad::div(grad::mul(picked, grad::unreduce(d.grad, self.sizes(), dims, keepdim)), count)}};
    };
    for (const char* name : {"amax", "amin"})
        differentiateWith(r.definition(name), [evenly](const DerivativeArgs& d) { return evenly(d, d.args.ints("dim"), d.args.flag("keepdim")); });
    for (const char* name : {"max", "min"})
        differentiateWith(r.definition(name), [evenly](const DerivativeArgs& d) { return evenly(d, {}, false); });
    // max.dim/min.dim: the gradient to the element each index picked.
    for (const char* name : {"max.dim", "min.dim"})
        differentiateWith(r.definition(name), [](const DerivativeArgs& d) {
            const Tensor& self = d.input("self");
            const int64_t dim = d.args.integer("dim") < 0 ? d.args.integer("dim") + self.dim() : d.args.integer("dim");
            Tensor indices = d.result.toSequence()->items[1].toTensor(), g = d.grad;
            if (!d.args.flag("keepdim") && self.dim() > 0) {
                indices = grad::call("unsqueeze", {indices, dim});
                g = grad::call("unsqueeze", {g, dim});
            }
            Shape along(static_cast<size_t>(self.dim()), 1);
            if (self.dim() > 0) along[static_cast<size_t>(dim)] = self.size(dim);
            Tensor picked = grad::call("eq", {grad::reshape(grad::arange(self.dim() > 0 ? self.size(dim) : 1, g), along), indices});
            return ArgumentGradients{{"self", grad::call("where", {picked, g, grad::zeros({}, g)})}};
        });
    // prod: the product of the others, which is the result over x where x != 0; where a
    // group holds one zero, that zero's gradient is the product of the rest, the others' 0.
    differentiateWith(r.definition("prod"), [spread](const DerivativeArgs& d) {
        const Tensor& self = d.input("self");
        std::vector<int64_t> dims = d.args["dim"].isNone() ? std::vector<int64_t>{} : d.args.ints("dim");
        Tensor zero = grad::call("eq", {self, 0.0});
        Tensor nonZero = grad::call("where", {zero, 1.0, self});
        Tensor rest = dims.empty() ? grad::call("prod", {nonZero}) : grad::call("prod", {nonZero, IValue::intList(dims), true});
        Tensor zeros = dims.empty() ? grad::call("sum", {zero}) : grad::call("sum", {zero, IValue::intList(dims), true});
        rest = grad::expand(rest, self.sizes());
        zeros = grad::expand(zeros, self.sizes());
        Tensor none = grad::zeros({}, d.grad);
        Tensor others = grad::call("where", {grad::call("eq", {zeros, 0}), grad::div(rest, nonZero),
                                             grad::call("where", {grad::call("logical_and", {grad::call("eq", {zeros, 1}), zero}), rest, none})});
        return ArgumentGradients{{"self", grad::fitTo(grad::mul(spread(d, d.grad), others), self)}};
    });
}

// A sum, mean or product over dims is PyTorch's second overload (SumBackward1); max() of
// everything its second (MaxBackward1: max.dim is the first).
void nameBackwardNodes(OpRegistry& r) {
    for (const char* name : {"sum", "mean", "prod"})
        gradFnNamedBy(r.definition(name), [base = std::string(1, static_cast<char>(std::toupper(name[0]))) + (name + 1)](const BoundArgs& a) {
            return base + (a["dim"].isNone() ? "Backward0" : "Backward1");
        });
    gradFnNamed(r.definition("max"), "MaxBackward1");
    gradFnNamed(r.definition("min"), "MinBackward1");
}

}  // namespace

void registerReductionOps(OpRegistry& r) {
    const std::string dimKeep = "(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor";
    // Floating sums follow ATen's cascade order (cascadeSum); the input is first converted to
    // the output dtype, as sum(dtype=...) does. Integer sums accumulate in int64.
    auto intSum = foldRun(0.0, 0, [](double acc, double x) { return acc + x; }, wrapAdd);
    addReduction(r, "sum", "sum" + dimKeep, accumulateType, reduction(ReductionKind::Sum),
                 [intSum](const BoundArgs& a, const Tensor& self, const std::vector<bool>& mask, const Tensor& out) {
                     if (!isFloating(out.dtype())) return intSum(a, self, mask, out);
                     cascadeSum(self.dtype() == out.dtype() ? self : castCopy(self, out.dtype()), mask, out);
                 });
    addReduction(r, "prod", "prod" + dimKeep, accumulateType, reduction(ReductionKind::Prod),
                 foldRun(1.0, 1, [](double acc, double x) { return acc * x; }, wrapMul));
    OpDef& mean = addReduction(r, "mean", "mean" + dimKeep, [](const BoundArgs& a, DType t) { return floatOnly("mean", a, t); }, lowerMean,
                 [](const BoundArgs&, const Tensor& self, const std::vector<bool>& mask, const Tensor& out) {
                     // As ATen's mean_out on CPU: sum (float16/bfloat16 as a float sum of the
                     // input converted to float), then divide by the count in that type.
                     DType sumType = out.dtype() == DType::Float16 || out.dtype() == DType::BFloat16 ? DType::Float32 : out.dtype();
                     Tensor sum = allocate(contiguousMeta(out.sizes(), sumType));
                     cascadeSum(self.dtype() == sumType ? self : castCopy(self, sumType), mask, sum);
                     int64_t count = 1;
                     for (std::size_t d = 0; d < mask.size(); ++d)
                         if (mask[d]) count *= self.sizes()[d];
                     const int64_t n = sum.numel();
                     if (sumType == DType::Float32) {
                         float* s = sum.data<float>();
                         for (int64_t i = 0; i < n; ++i) s[i] = s[i] / static_cast<float>(count);
                     } else {
                         double* s = sum.data<double>();
                         for (int64_t i = 0; i < n; ++i) s[i] = s[i] / static_cast<double>(count);
                     }
                     copyInto(out, sum);
                 });
    decomposeWith(mean, decomposeMean);
    const std::string dimList = "(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor";
    auto same = [](const BoundArgs&, DType t) { return t; };
    addReduction(r, "amax", "amax" + dimList, same, reduction(ReductionKind::Max),
                 [](const BoundArgs& a, const Tensor& self, const std::vector<bool>& mask, const Tensor& out) {
        extremeRun("amax", true, self, mask, dimGiven(a), &out, nullptr);
    });
    addReduction(r, "amin", "amin" + dimList, same, reduction(ReductionKind::Min),
                 [](const BoundArgs& a, const Tensor& self, const std::vector<bool>& mask, const Tensor& out) {
        extremeRun("amin", false, self, mask, dimGiven(a), &out, nullptr);
    });
    const std::string argSchema = "(Tensor self, int? dim=None, bool keepdim=False) -> Tensor";
    auto index = [](const BoundArgs&, DType) { return DType::Int64; };
    addReduction(r, "argmax", "argmax" + argSchema, index, argReduction(ReductionKind::ArgMax),
                 [](const BoundArgs& a, const Tensor& self, const std::vector<bool>& mask, const Tensor& out) {
        extremeRun("argmax", true, self, mask, dimGiven(a), nullptr, &out);
    });
    addReduction(r, "argmin", "argmin" + argSchema, index, argReduction(ReductionKind::ArgMin),
                 [](const BoundArgs& a, const Tensor& self, const std::vector<bool>& mask, const Tensor& out) {
        extremeRun("argmin", false, self, mask, dimGiven(a), nullptr, &out);
    });
    const std::string varSchema = "(Tensor self, int[1]? dim=None, bool? unbiased=None, bool keepdim=False, *, Scalar? correction=None) -> Tensor";
    auto varianceType = [](const BoundArgs& a, DType t) { return varType("std and var", a, t); };
    decomposeWith(addReduction(r, "var", "var" + varSchema, varianceType, lowerVariance(false), varianceRun(false)), decomposeVariance(false));
    decomposeWith(addReduction(r, "std", "std" + varSchema, varianceType, lowerVariance(true), varianceRun(true)), decomposeVariance(true));
    // torch.var(x, False): the legacy (self, unbiased) form.
    for (const char* name : {"var", "std"}) {
        std::string full = std::string(name) + ".unbiased";
        OpDef d;
        d.name = full;
        d.schema = full + "(Tensor self, bool unbiased) -> Tensor";
        // Rebind to the main overload: same parameters with dim=None, keepdim=False.
        auto forward = [name](const BoundArgs& a, bool meta) {
            const OpRegistry& reg = OpRegistry::instance();
            const OpDef* main = reg.find(name);
            BoundArgs b = reg.bind(*main, {a["self"]}, {{"unbiased", a["unbiased"]}});
            return meta ? main->infer(b) : main->kernel(b);
        };
        d.infer = [forward](const BoundArgs& a) { return forward(a, true); };
        d.kernel = [forward](const BoundArgs& a) { return forward(a, false); };
        d.derivative = [name](const DerivativeArgs& da) {
            const OpRegistry& reg = OpRegistry::instance();
            const OpDef* main = reg.find(name);
            BoundArgs b = reg.bind(*main, {da.args["self"]}, {{"unbiased", da.args["unbiased"]}});
            return main->derivative(DerivativeArgs{b, da.result, da.grad, da.beforeRead});
        };
        bool takeSqrt = std::string(name) == "std";
        decomposeWith(lowerWith(r.add(std::move(d)), lowerVariance(takeSqrt)), decomposeVariance(takeSqrt));
    }
    auto boolOut = [](const BoundArgs&, DType) { return DType::Bool; };
    const std::string logicalSchema = "(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor";
    addReduction(r, "all", "all" + logicalSchema, boolOut, reduction(ReductionKind::All),
                 [](const BoundArgs&, const Tensor& self, const std::vector<bool>& mask, const Tensor& out) {
        reduceRows<double>(self, mask, [&](int64_t o, std::span<const double> v) {
            bool all = true;
            for (double x : v) all = all && x != 0;
            storeAt(out, o, all);
        });
    });
    addReduction(r, "any", "any" + logicalSchema, boolOut, reduction(ReductionKind::Any),
                 [](const BoundArgs&, const Tensor& self, const std::vector<bool>& mask, const Tensor& out) {
        reduceRows<double>(self, mask, [&](int64_t o, std::span<const double> v) {
            bool any = false;
            for (double x : v) any = any || x != 0;
            storeAt(out, o, any);
        });
    });
    addMaxMin(r, "max", true);
    addMaxMin(r, "min", false);
    registerReductionDerivatives(r);
    nameBackwardNodes(r);
}

}  // namespace fusescope
