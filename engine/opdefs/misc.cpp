// Assorted ops: masked_fill, tril/triu, cumsum, outer, dropout, numel, allclose, equal, eye.
// masked_fill, tril and triu lower to a where; outer and dropout decompose; the rest run
// eagerly, each saying why.

#include <cmath>

#include <fmt/format.h>

#include "autograd/derivative_ops.h"
#include "core/error.h"
#include "core/random.h"
#include "lower/elementwise_rules.h"
#include "opdefs/op_families.h"
#include "ops/kernel_support.h"
#include "ops/wrapping_int.h"

namespace fusescope {

namespace {

int64_t itemSize(const Tensor& t) { return static_cast<int64_t>(dtypeSize(t.dtype())); }

void checkBoolMask(const Tensor& mask) {
    if (mask.dtype() != DType::Bool)
        throw ScriptError("RuntimeError", fmt::format("masked_fill_ only supports boolean masks, but got mask with dtype {}",
                                                      mask.dtype() == DType::Int64   ? "long int"
                                                      : mask.dtype() == DType::Int32 ? "int"
                                                                                     : std::string(dtypeScalarName(mask.dtype()))));
}

// Writes value into self wherever mask (broadcast to self) is true.
void maskedFillInto(const Tensor& self, const Tensor& mask, const IValue& value) {
    checkBoolMask(mask);
    if (broadcastShapes(self.sizes(), mask.sizes()) != self.sizes())
        throw ScriptError("RuntimeError", fmt::format("output with shape {} doesn't match the broadcast shape {}", shapeStr(self.sizes()),
                                                      shapeStr(broadcastShapes(self.sizes(), mask.sizes()))));
    Tensor v = value.isTensor() ? value.toTensor() : wrapScalar(value);
    if (v.dim() != 0)
        throw ScriptError("RuntimeError",
                          fmt::format("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).", v.dim()));
    const DType dt = self.dtype();
    const bool asInt = !isFloating(dt) && !isFloating(v.dtype());
    const double d = v.readDouble(0);
    const int64_t i = asInt ? v.readInt64(0) : 0;
    forEachElement(self.sizes(), {iterOperand(self, self.sizes()), iterOperand(mask, self.sizes())}, [&](char* const* p) {
        if (!*reinterpret_cast<const unsigned char*>(p[1])) return;
        if (asInt) storeInt(p[0], dt, i);
        else storeDouble(p[0], dt, d);
    });
}

// Zeroes the elements of self's last two dims outside the triangle.
void triangle(const Tensor& out, int64_t diagonal, bool lower) {
    const int64_t nd = out.dim();
    const int64_t rows = out.sizes()[static_cast<std::size_t>(nd - 2)], cols = out.sizes()[static_cast<std::size_t>(nd - 1)];
    const int64_t n = out.numel();
    for (int64_t flat = 0; flat < n; ++flat) {
        const int64_t c = flat % cols, r = (flat / cols) % rows;
        const bool keep = lower ? c - r <= diagonal : c - r >= diagonal;
        if (!keep) out.writeDouble(flat, 0.0);
    }
}

void checkMatrix(const char* op, const Tensor& t) {
    if (t.dim() < 2) throw ScriptError("RuntimeError", fmt::format("{}: input tensor must have at least 2 dimensions", op));
}

// ---- lowerings and decompositions ---------------------------------------------------------

std::vector<LValue> lowerMaskedFill(LoweringContext& c, const LoweringArgs& a) {
    DType out = c.meta().dtype;
    double value = a.bound().number("value");
    return {elementwise(c, {a.tensor("mask"), a.tensor("self")}, std::nullopt, out, [out, value](LoopBodyBuilder& b, const std::vector<int>& x) {
        return b.call(LoopOpKind::Where, {b.toDtype(x[0], DType::Bool), b.constant(value, out), b.toDtype(x[1], out)}, out);
    })};
}

// tril / triu: keep elements on the right side of the diagonal, zero the rest.
LoweringRule triangleRule(bool lower) {
    return [lower](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        LValue self = a.tensor("self");
        int64_t diagonal = a.bound().integer("diagonal");
        DType out = c.meta().dtype;
        return {c.lazy(c.outputSizes(), out,
                       [self, diagonal, out, lower](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                           size_t n = index.size();
                           int offset = b.indexExpr(index[n - 1] - index[n - 2], DType::Int64);
                           int keep = b.call(lower ? LoopOpKind::Le : LoopOpKind::Ge, {offset, b.constant(static_cast<double>(diagonal), DType::Int64)}, DType::Bool);
                           return b.call(LoopOpKind::Where, {keep, self.load(b, index), b.constant(0, out)}, out);
                       },
                       {self})};
    };
}

// dropout when it is the identity (not training, or p == 0); else the generator's values.
std::vector<LValue> lowerDropout(LoweringContext& c, const LoweringArgs& a) {
    if (a.bound().flag("training") && a.bound().number("p") != 0) c.unsupported("dropout in training mode (random)");
    return {identity(c, a.tensor("input"))};
}

std::optional<Argument> decomposeOuter(Rewrite& r) {
    Argument column = r.call("unsqueeze", {r.tensor("self"), constant(int64_t{1})});
    Argument row = r.call("unsqueeze", {r.tensor("vec2"), constant(int64_t{0})});
    return r.call("mul", {column, row});
}

std::optional<Argument> decomposeDropout(Rewrite& r) {
    if (r.bound.flag("training") && r.bound.number("p") != 0) return std::nullopt;
    return r.tensor("input");
}

}  // namespace

namespace {

// masked_fill, tril, triu: the filled places get no gradient; cumsum: each element's
// gradient is the sum of the gradients of the sums it is in (a reversed cumsum); outer:
// each vector's, the other weighted by the gradient's rows or columns.
void registerMiscDerivatives(OpRegistry& r) {
    // dropout that draws nothing (not training, p == 0) is its input; where it draws, the
    // library's F.dropout computes with a mask (torch/nn/functional.py), so only an in-place
    // call reaches here, whose mask is gone.
    differentiateWith(r.definition("dropout"), [](const DerivativeArgs& d) {
        if (d.args.flag("training") && d.args.number("p") != 0)
            throw ScriptError("RuntimeError", "the derivative for 'dropout' is not implemented.");
        return ArgumentGradients{{"input", d.grad}};
    }, Saved::SizesOnly);
    differentiateWith(r.definition("masked_fill"), [](const DerivativeArgs& d) {
        return ArgumentGradients{{"self", grad::fitTo(grad::call("masked_fill", {d.grad, d.input("mask"), 0.0}), d.like("self"))}};
    });
    // A 0-dim value tensor gets the gradients of the places it filled, summed.
    differentiateWith(r.definition("masked_fill.Tensor"), [](const DerivativeArgs& d) {
        const Tensor& mask = d.input("mask");
        Tensor filled = grad::call("where", {mask, d.grad, 0.0});
        return ArgumentGradients{{"self", grad::fitTo(grad::call("masked_fill", {d.grad, mask, 0.0}), d.like("self"))},
                                 {"value", grad::reshape(grad::call("sum", {filled}), d.like("value").sizes())}};
    });
    for (const char* name : {"tril", "triu"})
        differentiateWith(r.definition(name), [name](const DerivativeArgs& d) {
            return ArgumentGradients{{"self", grad::call(name, {d.grad, d.args["diagonal"]})}};
        }, Saved::SizesOnly);
    differentiateWith(r.definition("cumsum"), [](const DerivativeArgs& d) {
        const Tensor& self = d.input("self");
        if (self.dim() == 0) return ArgumentGradients{{"self", grad::fitTo(d.grad, self)}};
        IValue dims = IValue::intList({d.args.integer("dim")});
        Tensor reversed = grad::call("flip", {grad::call("cumsum", {grad::call("flip", {d.grad, dims}), d.args["dim"]}), dims});
        return ArgumentGradients{{"self", grad::fitTo(reversed, self)}};
    }, Saved::SizesOnly);
    differentiateWith(r.definition("outer"), [](const DerivativeArgs& d) {
        const Tensor &self = d.input("self"), &vec2 = d.input("vec2");
        ArgumentGradients g;
        if (d.wants("self")) g.emplace_back("self", grad::fitTo(grad::call("matmul", {d.grad, vec2}), self));
        if (d.wants("vec2")) g.emplace_back("vec2", grad::fitTo(grad::call("matmul", {grad::call("t", {d.grad}), self}), vec2));
        return g;
    });
    gradFnNamed(r.definition("outer"), "MulBackward0");  // PyTorch's outer is self[:, None] * vec2
}

}  // namespace

void registerMiscOps(OpRegistry& r) {
    const OpFlags both{};

    // masked_fill / masked_fill_
    lowerWith(r.add(makeOp("masked_fill", "masked_fill(Tensor self, Tensor mask, Scalar value) -> Tensor", both,
                 [](const BoundArgs& a) {
                     const Tensor& self = a.tensor("self");
                     checkBoolMask(a.tensor("mask"));
                     Shape sizes = broadcastShapes(self.sizes(), a.tensor("mask").sizes());
                     return ResultMeta{sizes, pointwiseStrides(sizes, {self}), self.dtype()};
                 },
                 [](const BoundArgs& a, const Tensor& out) {
                     copyInto(out, a.tensor("self"));
                     maskedFillInto(out, a.tensor("mask"), a["value"]);
                 })), lowerMaskedFill);
    // masked_fill(mask, value_tensor): the value read at run time, so compiled as a where.
    decomposeWith(r.add(makeOp("masked_fill.Tensor", "masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", both,
                               [](const BoundArgs& a) {
                                   const Tensor& self = a.tensor("self");
                                   checkBoolMask(a.tensor("mask"));
                                   if (a.tensor("value").dim() != 0)
                                       throw ScriptError("RuntimeError", fmt::format("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
                                                                                     a.tensor("value").dim()));
                                   Shape sizes = broadcastShapes(self.sizes(), a.tensor("mask").sizes());
                                   return ResultMeta{sizes, pointwiseStrides(sizes, {self}), self.dtype()};
                               },
                               [](const BoundArgs& a, const Tensor& out) {
                                   copyInto(out, a.tensor("self"));
                                   maskedFillInto(out, a.tensor("mask"), a["value"]);
                               })),
                  [](Rewrite& w) -> std::optional<Argument> {
                      Argument self = w.tensor("self");
                      Argument value = w.call("to.dtype", {w.tensor("value"), constant(IValue(w.meta(self).dtype))});
                      return w.call("where", {w.tensor("mask"), value, self});
                  }, true);
    {
        OpDef d;
        d.name = "masked_fill_";
        d.schema = "masked_fill_(Tensor self, Tensor mask, Scalar value) -> Tensor";
        d.isFunction = false;
        d.infer = [](const BoundArgs& a) {
            checkBoolMask(a.tensor("mask"));
            return IValue(a.tensor("self"));
        };
        d.kernel = [](const BoundArgs& a) {
            maskedFillInto(a.tensor("self"), a.tensor("mask"), a["value"]);
            return IValue(a.tensor("self"));
        };
        r.add(std::move(d));
    }

    // tril / triu (and in-place forms)
    for (bool lower : {true, false}) {
        std::string name = lower ? "tril" : "triu";
        lowerWith(r.add(makeOp(name, name + "(Tensor self, int diagonal=0) -> Tensor", both,
                     [name](const BoundArgs& a) {
                         const Tensor& self = a.tensor("self");
                         checkMatrix(name.c_str(), self);
                         return contiguousMeta(self.sizes(), self.dtype());
                     },
                     [lower](const BoundArgs& a, const Tensor& out) {
                         copyInto(out, a.tensor("self"));
                         triangle(out, a.integer("diagonal"), lower);
                     })), triangleRule(lower));
        OpDef d;
        d.name = name + "_";
        d.schema = d.name + "(Tensor self, int diagonal=0) -> Tensor";
        d.isFunction = false;
        d.infer = [name](const BoundArgs& a) {
            checkMatrix(name.c_str(), a.tensor("self"));
            return IValue(a.tensor("self"));
        };
        d.kernel = [name, lower](const BoundArgs& a) {
            const Tensor& self = a.tensor("self");
            checkMatrix(name.c_str(), self);
            triangle(self, a.integer("diagonal"), lower);
            return IValue(self);
        };
        r.add(std::move(d));
    }

    // cumsum: bool/int accumulate in int64; float32/float64 in double (ATen's CPU acc_type),
    // float16/bfloat16 in float; each prefix is rounded to the output type.
    runEagerly(r.add(makeOp("cumsum", "cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", both,
                 [](const BoundArgs& a) {
                     const Tensor& self = a.tensor("self");
                     wrapDim(a.integer("dim"), std::max<int64_t>(self.dim(), 1));
                     DType t = a["dtype"].isNone() ? (isFloating(self.dtype()) ? self.dtype() : DType::Int64) : a["dtype"].toDType();
                     return contiguousMeta(self.sizes(), t);
                 },
                 [](const BoundArgs& a, const Tensor& out) {
                     const Tensor& self = a.tensor("self");
                     Tensor src = contiguousCopy(castCopy(self, out.dtype()));
                     if (out.numel() == 0) return;
                     const int64_t nd = std::max<int64_t>(self.dim(), 1);
                     const int64_t dim = wrapDim(a.integer("dim"), nd);
                     const int64_t len = self.dim() == 0 ? 1 : self.sizes()[static_cast<std::size_t>(dim)];
                     int64_t inner = 1;
                     for (int64_t d = dim + 1; d < self.dim(); ++d) inner *= self.sizes()[static_cast<std::size_t>(d)];
                     const int64_t outer = out.numel() / (len * inner);
                     const DType dt = out.dtype();
                     const int64_t item = itemSize(out);
                     const bool half = dt == DType::Float16 || dt == DType::BFloat16;
                     for (int64_t o = 0; o < outer; ++o)
                         for (int64_t in = 0; in < inner; ++in) {
                             double accD = 0;
                             float accF = 0;
                             int64_t accI = 0;
                             for (int64_t k = 0; k < len; ++k) {
                                 const int64_t off = ((o * len + k) * inner + in) * item;
                                 if (!isFloating(dt)) {
                                     accI = wrapAdd(accI, loadInt(bytePtr(src) + off, dt));
                                     storeInt(bytePtr(out) + off, dt, accI);
                                 } else if (half) {
                                     accF += static_cast<float>(loadDouble(bytePtr(src) + off, dt));
                                     storeDouble(bytePtr(out) + off, dt, accF);
                                 } else {
                                     accD += loadDouble(bytePtr(src) + off, dt);
                                     storeDouble(bytePtr(out) + off, dt, accD);
                                 }
                             }
                         }
                 })), "a scan, which the loop IR has no form for yet");

    // outer(a, b) = a[:, None] * b[None, :]
    decomposeWith(r.add(makeOp("outer", "outer(Tensor self, Tensor vec2) -> Tensor", both,
                 [](const BoundArgs& a) {
                     const Tensor& x = a.tensor("self");
                     const Tensor& y = a.tensor("vec2");
                     if (x.dim() != 1 || y.dim() != 1)
                         throw ScriptError("RuntimeError", fmt::format("outer: Expected 1-D argument self, but got {}-D", x.dim() != 1 ? x.dim() : y.dim()));
                     return contiguousMeta({x.sizes()[0], y.sizes()[0]}, resultType({x, y}));
                 },
                 [](const BoundArgs& a, const Tensor& out) {
                     const Tensor& x = a.tensor("self");
                     const Tensor& y = a.tensor("vec2");
                     Tensor xc = x.asStrided({x.sizes()[0], 1}, {x.strides()[0], 0}, x.storageOffset());
                     Tensor yc = y.asStrided({1, y.sizes()[0]}, {0, y.strides()[0]}, y.storageOffset());
                     pointwiseApply(out, {xc, yc}, out.dtype(), [](const double* v) { return v[0] * v[1]; },
                                    [](const int64_t* v) { return v[0] * v[1]; });
                 })), decomposeOuter, true);

    // F.dropout: the input itself when not training (or p == 0); otherwise zeroes each element
    // with probability p (Fusescope's generator, so values differ from PyTorch's) and scales
    // the rest by 1 / (1 - p).
    {
        OpDef d;
        d.name = "dropout";
        d.schema = "dropout(Tensor input, float p=0.5, bool training=True, bool inplace=False) -> Tensor";
        d.isFunction = true;  // torch.dropout; F.dropout is the library's (torch/nn/functional.py)
        d.isMethod = false;
        d.isFunctional = true;
        auto check = [](const BoundArgs& a) {
            double p = a.number("p");
            if (p < 0 || p > 1) throw ScriptError("ValueError", fmt::format("dropout probability has to be between 0 and 1, but got {}", p));
        };
        d.infer = [check](const BoundArgs& a) {
            check(a);
            const Tensor& in = a.tensor("input");
            if (!a.flag("training") || a.flag("inplace") || a.number("p") == 0) return IValue(in);
            return IValue(metaLike(in));
        };
        d.kernel = [check](const BoundArgs& a) {
            check(a);
            const Tensor& in = a.tensor("input");
            const double p = a.number("p");
            if (!a.flag("training") || p == 0) return IValue(in);  // PyTorch's: the input, nothing drawn
            Tensor out = a.flag("inplace") ? in : allocate({in.sizes(), pointwiseStrides(in.sizes(), {in}), in.dtype()});
            const double scale = p == 1 ? 0.0 : 1.0 / (1.0 - p);
            const DType dt = in.dtype();
            forEachElement(in.sizes(), {iterOperand(out, in.sizes()), iterOperand(in, in.sizes())}, [&](char* const* ptr) {
                bool keep = p < 1 && randomUniform() >= p;  // p == 1 draws nothing, as PyTorch
                storeDouble(ptr[0], dt, keep ? loadDouble(ptr[1], dt) * scale : 0.0);
            });
            return IValue(out);
        };
        OpDef& dropout = lowerWith(r.add(std::move(d)), lowerDropout);
        decomposeWith(dropout, decomposeDropout, true);
    }

    // torch.numel(x) / x.numel()
    {
        OpDef d;
        d.name = "numel";
        d.schema = "numel(Tensor self) -> int";
        auto f = [](const BoundArgs& a) { return IValue(a.tensor("self").numel()); };
        d.infer = f;
        d.kernel = f;
        runEagerly(r.add(std::move(d)), "returns a Python int, not a tensor");
    }

    // allclose / equal return Python bools.
    {
        OpDef d;
        d.name = "allclose";
        d.schema = "allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> bool";
        d.infer = [](const BoundArgs&) -> IValue { throw DataDependentOutput("allclose"); };
        d.kernel = [](const BoundArgs& a) {
            const Tensor& x = a.tensor("self");
            const Tensor& y = a.tensor("other");
            if (x.dtype() != y.dtype())
                throw ScriptError("RuntimeError", fmt::format("{} did not match {}", dtypeScalarName(x.dtype()), dtypeScalarName(y.dtype())));
            Shape sizes = broadcastShapes(x.sizes(), y.sizes());
            const double rtol = a.number("rtol"), atol = a.number("atol");
            const bool equalNan = a.flag("equal_nan");
            const DType dt = x.dtype();
            bool all = true;
            forEachElement(sizes, {iterOperand(x, sizes), iterOperand(y, sizes)}, [&](char* const* p) {
                const double u = loadDouble(p[0], dt), v = loadDouble(p[1], dt);
                bool close;
                if (std::isnan(u) || std::isnan(v)) close = equalNan && std::isnan(u) && std::isnan(v);
                else if (u == v) close = true;
                else if (std::isinf(u) || std::isinf(v)) close = false;
                else close = std::fabs(u - v) <= atol + rtol * std::fabs(v);
                all = all && close;
            });
            return IValue(all);
        };
        runEagerly(r.add(std::move(d)), "returns a Python bool, not a tensor");
    }
    {
        OpDef d;
        d.name = "equal";
        d.schema = "equal(Tensor self, Tensor other) -> bool";
        d.infer = [](const BoundArgs&) -> IValue { throw DataDependentOutput("equal"); };
        d.kernel = [](const BoundArgs& a) {
            const Tensor& x = a.tensor("self");
            const Tensor& y = a.tensor("other");
            if (x.sizes() != y.sizes()) return IValue(false);
            const DType dx = x.dtype(), dy = y.dtype();
            const bool asInt = !isFloating(dx) && !isFloating(dy);
            bool all = true;
            forEachElement(x.sizes(), {iterOperand(x, x.sizes()), iterOperand(y, x.sizes())}, [&](char* const* p) {
                if (asInt) all = all && loadInt(p[0], dx) == loadInt(p[1], dy);
                else all = all && loadDouble(p[0], dx) == loadDouble(p[1], dy);
            });
            return IValue(all);
        };
        runEagerly(r.add(std::move(d)), "returns a Python bool, not a tensor");
    }

    // eye(n, m=None)
    {
        OpDef d = makeOp("eye",
                         "eye(int n, int? m=None, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor",
                         {true, false, false},
                         [](const BoundArgs& a) {
                             const int64_t n = a.integer("n");
                             const int64_t m = a["m"].isNone() ? n : a.integer("m");
                             if (n < 0) throw ScriptError("RuntimeError", fmt::format("n must be greater or equal to 0, got {}", n));
                             if (m < 0) throw ScriptError("RuntimeError", fmt::format("m must be greater or equal to 0, got {}", m));
                             DType t = a["dtype"].isNone() ? defaultFloat() : a["dtype"].toDType();
                             return contiguousMeta({n, m}, t);
                         },
                         [](const BoundArgs&, const Tensor& out) {
                             const int64_t n = out.sizes()[0], m = out.sizes()[1];
                             for (int64_t i = 0; i < std::min(n, m); ++i) out.writeDouble(i * m + i, 1.0);
                         });
        auto infer = d.infer;
        auto kernel = d.kernel;
        auto grad = [](const BoundArgs& a, IValue v) {
            bool g = a.flag("requires_grad");
            checkRequiresGrad(v.toTensor().dtype(), g);
            v.toTensor().setRequiresGrad(g);
            return v;
        };
        d.infer = [infer, grad](const BoundArgs& a) { return grad(a, infer(a)); };
        d.kernel = [kernel, grad](const BoundArgs& a) { return grad(a, kernel(a)); };
        runEagerly(r.add(std::move(d)), "not lowered yet");
    }
    registerMiscDerivatives(r);
}

}  // namespace fusescope
