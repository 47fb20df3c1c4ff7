// Binary pointwise ops (arithmetic, comparisons, logical and bitwise ops), where, clamp,
// and the in-place fill_/zero_/copy_. Each op is described once, with its lowering, and
// registered as functional and (a method) in-place.

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "autograd/derivative_ops.h"
#include "core/error.h"
#include "core/graph_replay.h"
#include "lower/elementwise_rules.h"
#include "opdefs/op_families.h"
#include "ops/kernel_support.h"
#include "ops/wrapping_int.h"

namespace fusescope {

namespace {

// An elementwise op over self and its other tensor operands. outType maps the common
// (promoted) dtype to the result dtype; computeType to the dtype arithmetic happens in.
struct PointwiseOp {
    std::string name;
    std::string schema;  // without the name
    OpFlags flags;
    std::vector<std::string> inputs;  // tensor parameters, promoted together
    std::function<DType(DType common, const BoundArgs&)> outType;
    std::function<DType(DType common, const BoundArgs&)> computeType;
    std::function<void(const BoundArgs&, const Tensor& out, const std::vector<Tensor>& in, DType compute)> run;
    bool inplace = true;  // also register name_ (method only)

    using TypeFn = std::function<DType(DType, const BoundArgs&)>;
    using RunFn = std::function<void(const BoundArgs&, const Tensor&, const std::vector<Tensor>&, DType)>;
    PointwiseOp(std::string n, std::string s, OpFlags f, std::vector<std::string> in, TypeFn out, TypeFn compute, RunFn r,
                bool inpl = true)
        : name(std::move(n)), schema(std::move(s)), flags(f), inputs(std::move(in)), outType(std::move(out)),
          computeType(std::move(compute)), run(std::move(r)), inplace(inpl) {}
};

std::vector<Tensor> gatherInputs(const PointwiseOp& op, const BoundArgs& a) {
    std::vector<Tensor> in;
    for (const std::string& n : op.inputs) in.push_back(a.tensor(n));
    return in;
}

// Registers op and, unless op.inplace is false, its in-place method; returns the functional
// op's definition, lowered by `lowering`.
OpDef& registerPointwise(OpRegistry& r, const PointwiseOp& op, LoweringRule lowering) {
    auto meta = [op](const BoundArgs& a) {
        std::vector<Tensor> in = gatherInputs(op, a);
        DType common = resultType(in);
        return pointwiseMeta(in, op.outType(common, a));
    };
    auto compute = [op](const BoundArgs& a, const Tensor& out) {
        std::vector<Tensor> in = gatherInputs(op, a);
        op.run(a, out, in, op.computeType(resultType(in), a));
    };
    OpFlags flags = op.flags;
    flags.writesEveryElement = true;
    OpDef& functional = lowerWith(r.add(makeOp(op.name, op.name + op.schema, flags, meta, compute)), std::move(lowering));
    if (!op.inplace) return functional;
    std::string name = op.name + "_";
    auto checked = [op](const BoundArgs& a) {
        std::vector<Tensor> in = gatherInputs(op, a);
        DType common = resultType(in);
        checkInplace(in[0], in, op.outType(common, a));
        return in;
    };
    OpDef d;
    d.name = name;
    d.schema = name + op.schema;
    d.isFunction = op.name == "relu";  // torch.relu_ exists; the rest are methods only
    d.isMethod = true;
    d.infer = [checked](const BoundArgs& a) { return IValue(checked(a)[0]); };
    d.kernel = [op, checked](const BoundArgs& a) {
        std::vector<Tensor> in = checked(a);
        op.run(a, in[0], in, op.computeType(resultType(in), a));
        return IValue(in[0]);
    };
    r.add(std::move(d));
    return functional;
}

DType same(DType common, const BoundArgs&) { return common; }
DType boolOut(DType, const BoundArgs&) { return DType::Bool; }

template <class FD, class FI>
auto elementwise(FD fd, FI fi) {
    return [fd, fi](const BoundArgs&, const Tensor& out, const std::vector<Tensor>& in, DType compute) {
        pointwiseApply(out, in, compute, fd, fi);
    };
}

// PyTorch raises RuntimeError("ZeroDivisionError") for integer division by zero.
[[noreturn]] void zeroDivision() { throw ScriptError("RuntimeError", "ZeroDivisionError"); }

double floorDivide(double a, double b) {
    // PyTorch's div_floor_floating: exact for representable quotients, sign-correct zeros.
    if (b == 0) return a / b;
    double mod = std::fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
    if (div == 0) return std::copysign(0.0, a / b);
    double f = std::floor(div);
    if (div - f > 0.5) f += 1.0;
    return f;
}

// Dividing by -1 negates with wrap-around, as PyTorch's int64 kernels do: the CPU's own
// division traps (SIGFPE) on the one quotient that does not fit, INT64_MIN / -1.
int64_t negateWrapping(int64_t a) { return static_cast<int64_t>(0 - static_cast<uint64_t>(a)); }

int64_t truncDivideInt(int64_t a, int64_t b) {
    if (b == 0) zeroDivision();
    return b == -1 ? negateWrapping(a) : a / b;
}

int64_t floorDivideInt(int64_t a, int64_t b) {
    if (b == 0) zeroDivision();
    if (b == -1) return negateWrapping(a);
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) --q;
    return q;
}

double pyMod(double a, double b) {
    double m = std::fmod(a, b);
    if (m != 0 && ((b < 0) != (m < 0))) m += b;
    return m;
}

int64_t pyModInt(int64_t a, int64_t b) {
    if (b == 0) zeroDivision();
    if (b == -1) return 0;  // INT64_MIN % -1 traps too
    int64_t m = a % b;
    if (m != 0 && ((b < 0) != (m < 0))) m += b;
    return m;
}

// A negative power is 0 unless the base is 1 or -1 (PyTorch's powi; only a Python number
// as the exponent is refused, by the op's type check).
int64_t intPow(int64_t base, int64_t exp) {
    if (exp < 0) return base == 1 ? 1 : base == -1 ? (exp % 2 == 0 ? 1 : -1) : 0;
    int64_t result = 1;
    while (exp) {
        if (exp & 1) result = wrapMul(result, base);
        base = wrapMul(base, base);
        exp >>= 1;
    }
    return result;
}

// alpha for add/sub: validated against the result dtype as PyTorch does.
IValue alphaFor(const BoundArgs& a, DType common) {
    const IValue& alpha = a["alpha"];
    if (isIntegral(common) && alpha.isDouble())
        throw ScriptError("RuntimeError", "For integral input tensors, argument alpha must not be a floating point number.");
    if (common == DType::Bool && !alpha.isBool() && alpha.toDouble() != 1.0)
        throw ScriptError("RuntimeError", "Boolean alpha only supported for Boolean results.");
    return alpha;
}

void checkNotBoolSub(const std::vector<Tensor>& in) {
    if (in[0].dtype() == DType::Bool && in[1].dtype() == DType::Bool)
        throw ScriptError("RuntimeError",
                          "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
    if (in[0].dtype() == DType::Bool || in[1].dtype() == DType::Bool)
        throw ScriptError("RuntimeError",
                          "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

void addSub(const BoundArgs& a, const Tensor& out, const std::vector<Tensor>& in, DType compute, double sign) {
    IValue alpha = alphaFor(a, compute);
    double ad = sign * alpha.toDouble();
    int64_t ai = static_cast<int64_t>(sign) * (alpha.isDouble() ? 0 : alpha.toInt());
    auto integer = [ai](const int64_t* v) { return wrapAdd(v[0], wrapMul(ai, v[1])); };
    if (ad == 1) return pointwiseApply(out, in, compute, ArithmeticFd<FloatArithmetic::Add>{}, integer);
    if (ad == -1) return pointwiseApply(out, in, compute, ArithmeticFd<FloatArithmetic::Sub>{}, integer);
    pointwiseApply(out, in, compute, [ad](const double* v) { return v[0] + ad * v[1]; }, integer);
}

std::string roundingMode(const BoundArgs& a) {
    const IValue& m = a["rounding_mode"];
    if (m.isNone()) return "";
    if (m.toString() != "trunc" && m.toString() != "floor")
        throw ScriptError("RuntimeError", fmt::format("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{}'",
                                                      m.toString()));
    return m.toString();
}


void registerWhereClamp(OpRegistry& r) {
    auto whereMeta = [](const BoundArgs& a) {
        const Tensor& cond = a.tensor("condition");
        if (cond.dtype() != DType::Bool)
            throw ScriptError("RuntimeError", fmt::format("where expected condition to be a boolean tensor, but got a tensor with dtype {}",
                                                          dtypeScalarName(cond.dtype())));
        std::vector<Tensor> in = {cond, a.tensor("self"), a.tensor("other")};
        return pointwiseMeta(in, resultType({in[1], in[2]}));
    };
    OpDef& where = r.add(makeOp("where", "where(Tensor condition, Tensor self, Tensor other) -> Tensor", {true, false, false}, whereMeta,
                                [](const BoundArgs& a, const Tensor& out) {
                                    pointwiseApply(out, {a.tensor("condition"), a.tensor("self"), a.tensor("other")}, out.dtype(),
                                                   [](const double* v) { return v[0] != 0 ? v[1] : v[2]; },
                                                   [](const int64_t* v) { return v[0] != 0 ? v[1] : v[2]; });
                                }));
    lowerWith(where, [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        DType out = c.meta().dtype;
        return {elementwise(c, {a.tensor("condition"), a.tensor("self"), a.tensor("other")}, std::nullopt, out,
                            [out](LoopBodyBuilder& b, const std::vector<int>& x) {
                                return b.call(LoopOpKind::Where, {b.toDtype(x[0], DType::Bool), b.toDtype(x[1], out), b.toDtype(x[2], out)}, out);
                            })};
    });

    // clamp promotes with its bounds as wrapped numbers: int tensor clamped by 0.5 is float.
    auto clampType = [](const BoundArgs& a) {
        const IValue& lo = a["min"];
        const IValue& hi = a["max"];
        if (lo.isNone() && hi.isNone())
            throw ScriptError("RuntimeError", "torch.clamp: At least one of 'min' or 'max' must not be None");
        std::vector<Tensor> ops = {a.tensor("self")};
        if (!lo.isNone()) ops.push_back(wrapScalar(lo));
        if (!hi.isNone()) ops.push_back(wrapScalar(hi));
        return resultType(ops);
    };
    auto clampInto = [](const BoundArgs& a, const Tensor& out) {
        const IValue& lo = a["min"];
        const IValue& hi = a["max"];
        double lod = lo.isNone() ? -INFINITY : lo.toDouble(), hid = hi.isNone() ? INFINITY : hi.toDouble();
        int64_t loi = lo.isNone() || lo.isDouble() ? INT64_MIN : lo.toInt();
        int64_t hii = hi.isNone() || hi.isDouble() ? INT64_MAX : hi.toInt();
        pointwiseApply(out, {a.tensor("self")}, out.dtype(),
                       [=](const double* v) { return std::isnan(v[0]) ? v[0] : std::min(std::max(v[0], lod), hid); },
                       [=](const int64_t* v) { return std::min(std::max(v[0], loi), hii); });
    };
    // Both forms lower to maximum with min, then minimum with max, in the output dtype.
    LoweringRule clampLowering = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        DType out = c.meta().dtype;
        std::vector<LValue> values{a.tensor("self")};
        bool hasMin = a.has("min"), hasMax = a.has("max");
        if (hasMin) values.push_back(a.tensor("min"));
        if (hasMax) values.push_back(a.tensor("max"));
        return {elementwise(c, values, out, out, [hasMin, hasMax, out](LoopBodyBuilder& b, const std::vector<int>& x) {
            int v = x[0];
            if (hasMin) v = b.call(LoopOpKind::Maximum, {v, x[1]}, out);
            if (hasMax) v = b.call(LoopOpKind::Minimum, {v, x[hasMin ? 2 : 1]}, out);
            return v;
        })};
    };
    const std::string tail = "(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor";
    lowerWith(r.add(makeOp("clamp", "clamp" + tail, {},
                           [clampType](const BoundArgs& a) {
                               const Tensor& self = a.tensor("self");
                               return pointwiseMeta({self}, clampType(a));
                           },
                           clampInto)),
              clampLowering);
    // clamp.Tensor: tensor bounds broadcast with self and promote with it as ordinary operands;
    // a nan bound gives nan, as PyTorch's clamp_stub does.
    auto clampTensorInputs = [](const BoundArgs& a) {
        std::vector<Tensor> in = {a.tensor("self")};
        if (a["min"].isNone() && a["max"].isNone())
            throw ScriptError("RuntimeError", "torch.clamp: At least one of 'min' or 'max' must not be None");
        if (!a["min"].isNone()) in.push_back(a.tensor("min"));
        if (!a["max"].isNone()) in.push_back(a.tensor("max"));
        return in;
    };
    OpDef& clampTensor = r.add(makeOp("clamp.Tensor", "clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", {},
                 [clampTensorInputs](const BoundArgs& a) {
                     std::vector<Tensor> in = clampTensorInputs(a);
                     return pointwiseMeta(in, resultType(in));
                 },
                 [clampTensorInputs](const BoundArgs& a, const Tensor& out) {
                     std::vector<Tensor> in = clampTensorInputs(a);
                     const bool hasLo = !a["min"].isNone(), hasHi = !a["max"].isNone();
                     const int hiAt = hasLo ? 2 : 1;
                     pointwiseApply(out, in, out.dtype(),
                                    [=](const double* v) {
                                        double x = v[0];
                                        if (hasLo) x = std::isnan(v[1]) ? v[1] : (std::isnan(x) ? x : std::max(x, v[1]));
                                        if (hasHi) x = std::isnan(v[hiAt]) ? v[hiAt] : (std::isnan(x) ? x : std::min(x, v[hiAt]));
                                        return x;
                                    },
                                    [=](const int64_t* v) {
                                        int64_t x = v[0];
                                        if (hasLo) x = std::max(x, v[1]);
                                        if (hasHi) x = std::min(x, v[hiAt]);
                                        return x;
                                    });
                 }));
    lowerWith(clampTensor, clampLowering);
    OpDef inplace;
    inplace.name = "clamp_";
    inplace.schema = "clamp_" + tail;
    inplace.isFunction = false;
    auto check = [clampType](const BoundArgs& a) {
        const Tensor& self = a.tensor("self");
        checkInplace(self, {self}, clampType(a));
        return self;
    };
    inplace.infer = [check](const BoundArgs& a) { return IValue(check(a)); };
    inplace.kernel = [check, clampInto](const BoundArgs& a) {
        Tensor self = check(a);
        clampInto(a, self);
        return IValue(self);
    };
    r.add(std::move(inplace));
}

// fill_, zero_ and copy_ overwrite self: its old values get no gradient; copy_'s source gets
// the gradient, summed back over what broadcasting stretched and in its own dtype.
void registerFillCopyDerivatives(OpRegistry& r) {
    gradFnNamed(r.definition("copy_"), "CopyBackwards");  // PyTorch's hand-written node
    for (const char* name : {"fill_", "zero_", "copy_"})
        differentiateWith(r.definition(name), [](const DerivativeArgs& d) {
            ArgumentGradients g;
            if (d.wants("self")) g.emplace_back("self", grad::call("zeros_like", {d.grad}));
            if (d.args.names.size() > 1 && d.args.names[1] == "src" && d.wants("src")) g.emplace_back("src", grad::fitTo(d.grad, d.like("src")));
            return g;
        }, Saved::SizesOnly);
}

void registerFillCopy(OpRegistry& r) {
    auto inplaceOp = [&](std::string name, std::string params, std::function<void(const BoundArgs&, const Tensor&)> check,
                         std::function<void(const BoundArgs&, const Tensor&)> fill) {
        OpDef d;
        d.name = name;
        d.schema = name + "(Tensor self" + params + ") -> Tensor";
        d.isFunction = false;
        d.infer = [check](const BoundArgs& a) {
            Tensor self = a.tensor("self");
            check(a, self);
            return IValue(self);
        };
        d.kernel = [check, fill](const BoundArgs& a) {
            Tensor self = a.tensor("self");
            check(a, self);
            fill(a, self);
            return IValue(self);
        };
        r.add(std::move(d));
    };
    auto noCheck = [](const BoundArgs&, const Tensor&) {};
    auto fillWith = [](const Tensor& self, const IValue& value) {
        Tensor v = wrapScalar(value);
        copyInto(self, v);
    };
    inplaceOp("fill_", ", Scalar value", noCheck, [fillWith](const BoundArgs& a, const Tensor& self) { fillWith(self, a["value"]); });
    inplaceOp("zero_", "", noCheck, [fillWith](const BoundArgs&, const Tensor& self) { fillWith(self, IValue(int64_t{0})); });
    inplaceOp("copy_", ", Tensor src, bool non_blocking=False",
              [](const BoundArgs& a, const Tensor& self) {
                  // copy_ converts any dtype; only the shape must broadcast to self's.
                  const Tensor& src = a.tensor("src");
                  Shape sizes = broadcastShapes(self.sizes(), src.sizes());
                  if (sizes != self.sizes())
                      throw ScriptError("RuntimeError", fmt::format("output with shape {} doesn't match the broadcast shape {}",
                                                                    shapeStr(self.sizes()), shapeStr(sizes)));
              },
              [](const BoundArgs& a, const Tensor& self) {
                  const Tensor& src = a.tensor("src");
                  if (!replayingGraph()) requireNoPartialOverlap(self, src);  // x[1:4].copy_(x[:3]), eagerly
                  // Overlapping source PyTorch cannot judge (x.copy_(x.t())) must be read before any write.
                  Tensor from = src.storage() == self.storage() ? contiguousCopy(src) : src;
                  copyInto(self, from);
              });
}

// add / sub with alpha: other * alpha first.
LoweringRule withAlpha(LoopOpKind loopOp) {
    return [loopOp](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        DType out = c.meta().dtype;
        double alpha = a.bound().number("alpha");
        return {elementwise(c, {a.tensor("self"), a.tensor("other")}, out, out,
                            [loopOp, alpha, out](LoopBodyBuilder& b, const std::vector<int>& x) {
                                int other = x[1];
                                if (alpha != 1) other = b.call(LoopOpKind::Mul, {other, b.constant(alpha, out)}, out);
                                return b.call(loopOp, {x[0], other}, out);
                            })};
    };
}

// The gradient maximum (or minimum) gives `mine` against `theirs`: all of it where mine
// won, half where they were equal.
Tensor pickedGradient(const Tensor& gradient, const Tensor& mine, const Tensor& theirs, bool isMax) {
    Tensor half = grad::mul(gradient, 0.5), none = grad::zeros({}, gradient);
    Tensor wins = grad::call(isMax ? "gt" : "lt", {mine, theirs});
    return grad::call("where", {wins, gradient, grad::call("where", {grad::call("eq", {mine, theirs}), half, none})});
}

}  // namespace

namespace {

// d(self + alpha * other) and d(self - alpha * other); d(self * other); d(self / other);
// d(self ** exponent).
void registerArithmeticDerivatives(OpRegistry& r) {
    using grad::fitTo;
    for (const char* name : {"add", "sub"})
        differentiateWith(r.definition(name), [sign = name[0] == 'a' ? 1.0 : -1.0](const DerivativeArgs& d) {
            ArgumentGradients g;
            if (d.wants("self")) g.emplace_back("self", fitTo(d.grad, d.like("self")));
            if (d.wants("other")) g.emplace_back("other", fitTo(grad::mul(d.grad, sign * d.args.number("alpha")), d.like("other")));
            return g;
        }, Saved::SizesOnly);
    differentiateWith(r.definition("mul"), [](const DerivativeArgs& d) {
        ArgumentGradients g;
        if (d.wants("self")) g.emplace_back("self", fitTo(grad::mul(d.grad, d.input("other")), d.like("self")));
        if (d.wants("other")) g.emplace_back("other", fitTo(grad::mul(d.grad, d.input("self")), d.like("other")));
        return g;
    });
    differentiateWith(r.definition("div"), [](const DerivativeArgs& d) {
        ArgumentGradients g;
        if (!d.args["rounding_mode"].isNone()) {  // a step function: PyTorch's grad * 0, so NaN stays NaN
            for (const char* name : {"self", "other"})
                if (d.wants(name)) g.emplace_back(name, fitTo(grad::mul(d.grad, 0.0), d.like(name)));
            return g;
        }
        const Tensor& other = d.input("other");
        if (d.wants("self")) g.emplace_back("self", fitTo(grad::div(d.grad, other), d.like("self")));
        if (d.wants("other")) g.emplace_back("other", fitTo(grad::neg(grad::div(grad::mul(d.grad, d.out()), other)), other));
        return g;
    });
    differentiateWith(r.definition("where"), [](const DerivativeArgs& d) {
        const Tensor& condition = d.input("condition");
        Tensor none = grad::zeros({}, d.grad);
        ArgumentGradients g;
        if (d.wants("self")) g.emplace_back("self", fitTo(grad::call("where", {condition, d.grad, none}), d.like("self")));
        if (d.wants("other")) g.emplace_back("other", fitTo(grad::call("where", {condition, none, d.grad}), d.like("other")));
        return g;
    });
    differentiateWith(r.definition("remainder"), [](const DerivativeArgs& d) {  // self - floor(self / other) * other
        ArgumentGradients g;
        if (d.wants("self")) g.emplace_back("self", fitTo(d.grad, d.like("self")));
        if (d.wants("other")) {
            Tensor quotient = grad::call("floor_divide", {d.input("self"), d.input("other")});
            g.emplace_back("other", fitTo(grad::neg(grad::mul(d.grad, quotient)), d.like("other")));
        }
        return g;
    });
    // maximum/minimum: the gradient to the argument picked, halved between equal ones.
    for (const char* name : {"maximum", "minimum"})
        differentiateWith(r.definition(name), [isMax = name[1] == 'a'](const DerivativeArgs& d) {
            const Tensor &self = d.input("self"), &other = d.input("other");
            ArgumentGradients g;
            if (d.wants("self")) g.emplace_back("self", fitTo(pickedGradient(d.grad, self, other, isMax), self));
            if (d.wants("other")) g.emplace_back("other", fitTo(pickedGradient(d.grad, other, self, isMax), other));
            return g;
        });
    // clamp: the gradient where the input was strictly inside the bounds (PyTorch 2.15: none
    // at a bound).
    differentiateWith(r.definition("clamp"), [](const DerivativeArgs& d) {
        const Tensor& self = d.input("self");
        Tensor inside = grad::call("ones_like", {self}, {{"dtype", IValue(DType::Bool)}});
        if (!d.args["min"].isNone()) inside = grad::call("logical_and", {inside, grad::call("gt", {self, d.args["min"]})});
        if (!d.args["max"].isNone()) inside = grad::call("logical_and", {inside, grad::call("lt", {self, d.args["max"]})});
        return ArgumentGradients{{"self", grad::call("where", {inside, d.grad, grad::zeros({}, d.grad)})}};
    });
    // clamp.Tensor as PyTorch 2.15 differentiates it: minimum(maximum(self, min), max), a tie
    // sharing the gradient equally (min > max gives max everywhere).
    differentiateWith(r.definition("clamp.Tensor"), [](const DerivativeArgs& d) {
        const Tensor& self = d.input("self");
        const bool hasMin = !d.args["min"].isNone(), hasMax = !d.args["max"].isNone();
        Tensor raised = hasMin ? grad::call("maximum", {self, d.input("min")}) : self;
        Tensor toRaised = hasMax ? pickedGradient(d.grad, raised, d.input("max"), false) : d.grad;
        ArgumentGradients g;
        if (d.wants("self")) g.emplace_back("self", fitTo(hasMin ? pickedGradient(toRaised, self, d.input("min"), true) : toRaised, self));
        if (hasMin && d.wants("min")) g.emplace_back("min", fitTo(pickedGradient(toRaised, d.input("min"), self, true), d.like("min")));
        if (hasMax && d.wants("max")) g.emplace_back("max", fitTo(pickedGradient(d.grad, d.input("max"), raised, false), d.like("max")));
        return g;
    });
    differentiateWith(r.definition("pow"), [](const DerivativeArgs& d) {
        ArgumentGradients g;
        const Tensor &self = d.input("self"), &exponent = d.input("exponent");
        if (d.wants("self")) {
            Tensor lowered = grad::call("pow", {self, grad::call("sub", {exponent, 1.0})});
            g.emplace_back("self", fitTo(grad::mul(grad::mul(d.grad, exponent), lowered), self));
        }
        if (d.wants("exponent"))
            g.emplace_back("exponent", fitTo(grad::mul(grad::mul(d.grad, d.out()), grad::call("log", {self})), exponent));
        return g;
    });
}

// PyTorch's names for the overloads a Python number picks: x ** 2 is PowBackward0, x ** y
// PowBackward1, 2 ** x PowBackward2; 1 - x is rsub; 2 / x is reciprocal(x) * 2.
void nameBackwardNodes(OpRegistry& r) {
    auto number = [](const BoundArgs& a, const char* name) { return a.tensor(name).isWrappedNumber(); };
    gradFnNamedBy(r.definition("pow"), [number](const BoundArgs& a) {
        return number(a, "self") ? "PowBackward2" : number(a, "exponent") ? "PowBackward0" : "PowBackward1";
    });
    gradFnNamedBy(r.definition("sub"), [number](const BoundArgs& a) { return number(a, "self") ? "RsubBackward1" : "SubBackward0"; });
    gradFnNamedBy(r.definition("div"), [number](const BoundArgs& a) {
        return number(a, "self") ? "MulBackward0" : a["rounding_mode"].isNone() ? "DivBackward0" : "DivBackward2";
    });
    gradFnNamedBy(r.definition("remainder"),
                  [number](const BoundArgs& a) { return number(a, "other") ? "RemainderBackward0" : "RemainderBackward1"; });
    gradFnNamed(r.definition("clamp"), "ClampBackward1");
}

}  // namespace

void registerArithmeticOps(OpRegistry& r) {
    using K = LoopOpKind;
    const std::string binary = "(Tensor self, Tensor other) -> Tensor";
    const std::vector<std::string> so = {"self", "other"};
    const OpFlags both{};

    registerPointwise(r, {"add", "(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", both, so, same, same,
                          [](const BoundArgs& a, const Tensor& out, const std::vector<Tensor>& in, DType c) { addSub(a, out, in, c, 1.0); }},
                      withAlpha(K::Add));
    registerPointwise(r, {"sub", "(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", both, so,
                          [](DType c, const BoundArgs& a) {
                              checkNotBoolSub({a.tensor("self"), a.tensor("other")});
                              return c;
                          },
                          same,
                          [](const BoundArgs& a, const Tensor& out, const std::vector<Tensor>& in, DType c) { addSub(a, out, in, c, -1.0); }},
                      withAlpha(K::Sub));
    registerPointwise(r, {"mul", binary, both, so, same, same,
                          elementwise(ArithmeticFd<FloatArithmetic::Mul>{}, [](const int64_t* v) { return wrapMul(v[0], v[1]); })},
                      binaryRule(K::Mul));
    registerPointwise(
        r, {"div", "(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", both, so,
            [](DType c, const BoundArgs& a) { return roundingMode(a).empty() ? toFloatType(c) : c; },
            [](DType c, const BoundArgs& a) { return roundingMode(a).empty() ? toFloatType(c) : c; },
            [](const BoundArgs& a, const Tensor& out, const std::vector<Tensor>& in, DType c) {
                std::string mode = roundingMode(a);
                if (mode.empty())
                    pointwiseApply(out, in, c, ArithmeticFd<FloatArithmetic::Div>{}, nullptr);
                else if (mode == "trunc")
                    pointwiseApply(out, in, c, [](const double* v) { return std::trunc(v[0] / v[1]); },
                                   [](const int64_t* v) { return truncDivideInt(v[0], v[1]); });
                else
                    pointwiseApply(out, in, c, [](const double* v) { return floorDivide(v[0], v[1]); },
                                   [](const int64_t* v) { return floorDivideInt(v[0], v[1]); });
            }},
        [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
            const IValue& mode = a.bound()["rounding_mode"];
            K loopOp = mode.isNone() ? K::TrueDiv : mode.toString() == "floor" ? K::FloorDiv : K::TruncDiv;
            return binaryRule(loopOp)(c, a);
        });
    gradFnNamed(registerPointwise(r, {"floor_divide", binary, both, so, same, same,
                                      elementwise([](const double* v) { return floorDivide(v[0], v[1]); },
                                                  [](const int64_t* v) { return floorDivideInt(v[0], v[1]); })},
                                  binaryRule(K::FloorDiv)),
                grad::kNotImplementedNode);
    registerPointwise(r, {"remainder", binary, both, so, same, same,
                          elementwise([](const double* v) { return pyMod(v[0], v[1]); },
                                      [](const int64_t* v) { return pyModInt(v[0], v[1]); })},
                      binaryRule(K::Mod));
    // As PyTorch's pow meta function: an integer tensor to a negative integer Python number
    // is an error however the values look, so tracing (meta) raises it as eager does.
    auto powType = [](DType c, const BoundArgs& a) {
        const Tensor& self = a.tensor("self");
        const Tensor& exponent = a.tensor("exponent");
        if (isIntegral(self.dtype()) && exponent.impl()->wrappedNumber && isIntegral(exponent.dtype()) && !exponent.isMeta() &&
            exponent.readInt64(0) < 0)
            throw ScriptError("RuntimeError", "Integers to negative integer powers are not allowed.");
        return c;
    };
    registerPointwise(r, {"pow", "(Tensor self, Tensor exponent) -> Tensor", both, {"self", "exponent"}, powType, same,
                          elementwise([](const double* v) { return std::pow(v[0], v[1]); },
                                      [](const int64_t* v) { return intPow(v[0], v[1]); })},
                      computedInOutputType(K::Pow, {"self", "exponent"}));
    auto maxFn = [](const double* v) { return std::isnan(v[0]) || std::isnan(v[1]) ? NAN : std::max(v[0], v[1]); };
    auto minFn = [](const double* v) { return std::isnan(v[0]) || std::isnan(v[1]) ? NAN : std::min(v[0], v[1]); };
    registerPointwise(r, {"maximum", binary, both, so, same, same,
                          elementwise(maxFn, [](const int64_t* v) { return std::max(v[0], v[1]); }), false},
                      binaryRule(K::Maximum));
    registerPointwise(r, {"minimum", binary, both, so, same, same,
                          elementwise(minFn, [](const int64_t* v) { return std::min(v[0], v[1]); }), false},
                      binaryRule(K::Minimum));

    // Comparisons compare in the promoted type and return bool.
    auto cmp = [&](const char* name, K loopOp, auto fd, auto fi) {
        registerPointwise(r, {name, binary, both, so, boolOut, same, elementwise(fd, fi), false}, predicateRule(loopOp, so));
    };
    cmp("eq", K::Eq, [](const double* v) { return double(v[0] == v[1]); }, [](const int64_t* v) { return int64_t(v[0] == v[1]); });
    cmp("ne", K::Ne, [](const double* v) { return double(v[0] != v[1]); }, [](const int64_t* v) { return int64_t(v[0] != v[1]); });
    cmp("lt", K::Lt, [](const double* v) { return double(v[0] < v[1]); }, [](const int64_t* v) { return int64_t(v[0] < v[1]); });
    cmp("le", K::Le, [](const double* v) { return double(v[0] <= v[1]); }, [](const int64_t* v) { return int64_t(v[0] <= v[1]); });
    cmp("gt", K::Gt, [](const double* v) { return double(v[0] > v[1]); }, [](const int64_t* v) { return int64_t(v[0] > v[1]); });
    cmp("ge", K::Ge, [](const double* v) { return double(v[0] >= v[1]); }, [](const int64_t* v) { return int64_t(v[0] >= v[1]); });
    auto logical = [&](const char* name, K loopOp, auto fd) {
        registerPointwise(r, {name, binary, both, so, boolOut, [](DType, const BoundArgs&) { return DType::Float64; },
                              elementwise(fd, nullptr), false},
                          logicalRule(loopOp, so));
    };
    logical("logical_and", K::LogicalAnd, [](const double* v) { return double(v[0] != 0 && v[1] != 0); });
    logical("logical_or", K::LogicalOr, [](const double* v) { return double(v[0] != 0 || v[1] != 0); });
    logical("logical_xor", K::LogicalXor, [](const double* v) { return double((v[0] != 0) != (v[1] != 0)); });
    // Bitwise ops back Python's & | ^ on bool masks and ints.
    auto bitwise = [&](const char* name, K loopOp, auto fi) {
        registerPointwise(r, {name, binary, both, so,
                              [name](DType c, const BoundArgs&) {
                                  if (isFloating(c))
                                      throw ScriptError("RuntimeError", fmt::format("\"{}_cpu\" not implemented for '{}'", name, dtypeScalarName(c)));
                                  return c;
                              },
                              same, elementwise([](const double* v) { return v[0]; }, fi), false},
                          binaryRule(loopOp));
    };
    bitwise("bitwise_and", K::BitwiseAnd, [](const int64_t* v) { return v[0] & v[1]; });
    bitwise("bitwise_or", K::BitwiseOr, [](const int64_t* v) { return v[0] | v[1]; });
    bitwise("bitwise_xor", K::BitwiseXor, [](const int64_t* v) { return v[0] ^ v[1]; });

    registerWhereClamp(r);
    registerFillCopy(r);
    registerFillCopyDerivatives(r);
    registerArithmeticDerivatives(r);
    nameBackwardNodes(r);
}

}  // namespace fusescope
