// View ops: results share the input's storage with new sizes/strides/offset. Each op
// computes its geometry once; infer turns it into a meta tensor, the kernel into a view.
// Each lowers to a view of its input's value (lower/view_lowering.h): no data moves.

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "autograd/derivative_ops.h"
#include "core/error.h"
#include "lower/elementwise_rules.h"
#include "lower/view_lowering.h"
#include "opdefs/op_families.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

struct ViewGeometry {
    Shape sizes;
    Shape strides;
    int64_t offset = 0;
};

Tensor applyView(const Tensor& self, const ViewGeometry& g) {
    if (self.isMeta()) {
        Tensor m = Tensor::emptyMeta(g.sizes, g.strides, self.dtype());
        m.impl()->storageOffset = g.offset;
        m.setRequiresGrad(self.requiresGrad());
        return m;
    }
    return self.asStrided(g.sizes, g.strides, g.offset);
}

using GeometryFn = std::function<ViewGeometry(const BoundArgs&, const Tensor& self)>;

// detach is a view that drops requires_grad; every other view keeps it. `lowering` (none:
// the op runs eagerly, saying why) compiles it.
OpDef& addView(OpRegistry& r, std::string name, std::string schema, OpFlags flags, LoweringRule lowering, GeometryFn geometry,
               bool keepGrad = true) {
    OpDef d;
    d.name = std::move(name);
    d.schema = std::move(schema);
    d.isFunction = flags.function;
    d.isMethod = flags.method;
    auto fn = [geometry, keepGrad](const BoundArgs& a) {
        const Tensor& self = a.tensor("self");
        Tensor view = applyView(self, geometry(a, self));
        if (!keepGrad) view.setRequiresGrad(false);
        return IValue(view);
    };
    d.infer = fn;
    d.kernel = fn;
    d.mayAlias = true;
    OpDef& op = r.add(std::move(d));
    return lowering ? lowerWith(op, std::move(lowering)) : op;
}

// Resolves one -1 in a requested shape against numel.
Shape inferSize(const std::vector<int64_t>& shape, int64_t numel) {
    Shape out(shape.begin(), shape.end());
    int64_t known = 1;
    bool overflow = false;  // a product past int64 matches no input's size (a zero size aside)
    std::optional<std::size_t> inferred;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i] == -1) {
            if (inferred) throw ScriptError("RuntimeError", "only one dimension can be inferred");
            inferred = i;
        } else if (out[i] < 0) {
            throw ScriptError("RuntimeError", fmt::format("invalid shape dimension {}", out[i]));
        } else if (out[i] == 0) {
            known = 0, overflow = false;
        } else if (known != 0 && __builtin_mul_overflow(known, out[i], &known)) {
            overflow = true;
        }
    }
    bool ok = !overflow && (inferred ? (known != 0 && numel % known == 0) : known == numel);
    if (!ok) throw ScriptError("RuntimeError", fmt::format("shape '{}' is invalid for input of size {}", shapeStr(Shape(shape.begin(), shape.end())), numel));
    if (inferred) out[*inferred] = numel / known;
    return out;
}

// reshape/flatten: a view when the strides allow, otherwise a contiguous copy.
Tensor reshapeTo(const Tensor& self, const Shape& shape) {
    if (auto strides = viewStrides(self.sizes(), self.strides(), shape))
        return applyView(self, {shape, *strides, self.storageOffset()});
    if (self.isMeta()) return metaTensor(contiguousMeta(shape, self.dtype()));
    Tensor copy = contiguousCopy(self);
    copy.setRequiresGrad(self.requiresGrad());
    return copy.asStrided(shape, contiguousStrides(shape), 0);
}

OpDef reshapeLike(std::string name, std::string schema, OpFlags flags, std::function<Shape(const BoundArgs&, const Tensor&)> shape) {
    OpDef d;
    d.name = std::move(name);
    d.schema = std::move(schema);
    d.isFunction = flags.function;
    d.isMethod = flags.method;
    d.kernel = [shape](const BoundArgs& a) {
        const Tensor& self = a.tensor("self");
        return IValue(reshapeTo(self, shape(a, self)));
    };
    d.infer = d.kernel;
    d.mayAlias = true;
    // A view where the strides allow one, else a copy (PyTorch's _unsafe_view of a clone).
    d.gradFn = [shape](const BoundArgs& a) {
        const Tensor& self = a.tensor("self");
        return viewStrides(self.sizes(), self.strides(), shape(a, self)) ? "ViewBackward0" : "UnsafeViewBackward0";
    };
    return d;
}

ViewGeometry permuteGeometry(const Tensor& self, const std::vector<int64_t>& dims) {
    int64_t nd = self.dim();
    if (static_cast<int64_t>(dims.size()) != nd)
        throw ScriptError("RuntimeError",
                          fmt::format("permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
                                      "ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}",
                                      nd, dims.size()));
    ViewGeometry g{Shape(dims.size()), Shape(dims.size()), self.storageOffset()};
    std::vector<bool> seen(dims.size(), false);
    for (std::size_t i = 0; i < dims.size(); ++i) {
        std::size_t d = static_cast<std::size_t>(wrapDim(dims[i], nd));
        if (seen[d]) throw ScriptError("RuntimeError", "permute(): duplicate dims are not allowed.");
        seen[d] = true;
        g.sizes[i] = self.sizes()[d];
        g.strides[i] = self.strides()[d];
    }
    return g;
}

ViewGeometry transposeGeometry(const Tensor& self, int64_t d0, int64_t d1) {
    ViewGeometry g{self.sizes(), self.strides(), self.storageOffset()};
    if (self.dim() == 0) {
        wrapDim(d0, 0);
        wrapDim(d1, 0);
        return g;
    }
    std::size_t a = static_cast<std::size_t>(wrapDim(d0, self.dim())), b = static_cast<std::size_t>(wrapDim(d1, self.dim()));
    std::swap(g.sizes[a], g.sizes[b]);
    std::swap(g.strides[a], g.strides[b]);
    return g;
}

ViewGeometry sliceGeometry(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
    if (self.dim() == 0) throw ScriptError("IndexError", "slice() cannot be applied to a 0-dim tensor.");
    if (step <= 0) throw ScriptError("ValueError", "slice step must be positive");
    std::size_t d = static_cast<std::size_t>(wrapDim(dim, self.dim()));
    int64_t size = self.sizes()[d];
    auto clampIndex = [size](int64_t i) {
        if (i < 0) i += size;
        return std::clamp<int64_t>(i, 0, size);
    };
    int64_t s = start ? clampIndex(*start) : 0;
    int64_t e = end ? clampIndex(*end) : size;
    if (e < s) e = s;
    ViewGeometry g{self.sizes(), self.strides(), self.storageOffset() + s * self.strides()[d]};
    g.sizes[d] = e == s ? 0 : (e - s - 1) / step + 1;
    // A step past the end leaves at most one element, whose stride does not matter.
    if (__builtin_mul_overflow(g.strides[d], step, &g.strides[d])) g.strides[d] = self.strides()[d];
    return g;
}

std::optional<int64_t> optInt(const IValue& v) { return v.isNone() ? std::nullopt : std::optional<int64_t>(v.toInt()); }

// ---- lowerings ---------------------------------------------------------------------------

std::vector<LValue> lowerTranspose(LoweringContext& c, const LoweringArgs& a) {
    LValue self = a.tensor("self");
    size_t rank = self.sizes.size();
    if (rank == 0) return {self};  // a scalar's dims 0 and -1 are itself
    std::vector<int64_t> perm(rank);
    for (size_t i = 0; i < rank; ++i) perm[i] = static_cast<int64_t>(i);
    std::swap(perm[normalizeDim(a.bound().integer("dim0"), rank)], perm[normalizeDim(a.bound().integer("dim1"), rank)]);
    return {permute(c, self, perm)};
}

std::vector<LValue> lowerT(LoweringContext& c, const LoweringArgs& a) {
    LValue self = a.tensor("self");
    if (self.sizes.size() < 2) return {self};
    return {permute(c, self, {1, 0})};
}

std::vector<LValue> lowerPermute(LoweringContext& c, const LoweringArgs& a) {
    LValue self = a.tensor("self");
    return {permute(c, self, normalizedDims(a.bound().ints("dims"), self.sizes.size()))};
}

// view, reshape, flatten: the node's sizes through the flat position.
std::vector<LValue> lowerReshape(LoweringContext& c, const LoweringArgs& a) { return {reshape(c, a.tensor("self"), c.outputSizes())}; }

// unsqueeze, squeeze: size-1 dims inserted or removed.
std::vector<LValue> lowerRestride(LoweringContext& c, const LoweringArgs& a) { return {restride(c, a.tensor("self"), c.outputSizes())}; }
std::vector<LValue> lowerExpand(LoweringContext& c, const LoweringArgs& a) { return {expandTo(c, a.tensor("self"), c.outputSizes())}; }

std::vector<LValue> lowerSelect(LoweringContext& c, const LoweringArgs& a) {
    LValue self = a.tensor("self");
    int64_t dim = normalizeDim(a.bound().integer("dim"), self.sizes.size());
    int64_t index = a.bound().integer("index");
    // From the end of the dim as it is at run time: a dynamic dim's size is a symbol (x[:, -1]
    // once read the example's last column at every size).
    return {select(c, self, dim, index < 0 ? self.sizes[dim] + IndexExpr(index) : IndexExpr(index))};
}

std::vector<LValue> lowerUnbind(LoweringContext& c, const LoweringArgs& a) {
    LValue self = a.tensor("self");
    int64_t dim = normalizeDim(a.bound().integer("dim"), self.sizes.size());
    auto n = self.sizes[dim].constant();
    if (!n) c.unsupported("unbind over a dynamic dim");
    std::vector<LValue> out;
    for (int64_t i = 0; i < *n; ++i) out.push_back(select(c, self, dim, IndexExpr(i)));
    return out;
}

std::vector<LValue> sliceFrom(LoweringContext& c, const LoweringArgs& a, int64_t dim, int64_t start, int64_t step) {
    LValue self = a.tensor("self");
    dim = normalizeDim(dim, self.sizes.size());
    // A start from the end of a dynamic dim (x[:, -3:]) is clamped at run time, which the
    // lowering does not do: such a slice runs eagerly (once: the example's start at every size).
    if (!self.sizes[dim].constant() && (start < 0 || start > a.bound().tensor("self").sizes()[dim]))
        c.unsupported("a slice of a dynamic dim from its end");
    int64_t size = a.bound().tensor("self").sizes()[dim];
    if (start < 0) start += size;
    start = std::clamp<int64_t>(start, 0, size);
    return {slice(c, self, dim, start, step, c.outputSizes()[dim])};
}

std::vector<LValue> lowerSlice(LoweringContext& c, const LoweringArgs& a) {
    const IValue& start = a.bound()["start"];
    return sliceFrom(c, a, a.bound().integer("dim"), start.isNone() ? 0 : start.toInt(), a.bound().integer("step"));
}

std::vector<LValue> lowerNarrow(LoweringContext& c, const LoweringArgs& a) {
    return sliceFrom(c, a, a.bound().integer("dim"), a.bound().integer("start"), 1);
}

// detach, contiguous: the same elements. A buffer already row-major is returned as it is (as
// eager returns self), so a view after it, like attention's transpose(1, 2).contiguous()
// .view(B, L, C), stays a view rather than a copy.
std::vector<LValue> lowerIdentity(LoweringContext& c, const LoweringArgs& a) {
    const LValue self = a.tensor("self");
    if (!self.storageBacked() || !FixedLayout{self.view.device, self.view.dtype, self.view.size, self.view.stride, {}}.isContiguous())
        return {identity(c, self)};
    LValue same = self;
    same.origins = c.lazy({}, self.dtype, nullptr, {self}).origins;
    return {same};
}

}  // namespace

namespace {

// A view's gradient is the result's gradient viewed back: reshaped, transposed or permuted
// back, or summed over what an expand stretched.
void registerViewDerivatives(OpRegistry& r) {
    auto reshapeBack = [](const DerivativeArgs& d) {
        return ArgumentGradients{{"self", grad::reshape(grad::call("contiguous", {d.grad}), d.input("self").sizes())}};
    };
    for (const char* name : {"view", "reshape", "flatten", "unsqueeze", "squeeze"})
        differentiateWith(r.definition(name), reshapeBack, Saved::SizesOnly);
    differentiateWith(r.definition("t"), [](const DerivativeArgs& d) { return ArgumentGradients{{"self", grad::call("t", {d.grad})}}; },
                      Saved::SizesOnly);
    differentiateWith(r.definition("transpose"), [](const DerivativeArgs& d) {
        return ArgumentGradients{{"self", grad::transpose(d.grad, d.args.integer("dim0"), d.args.integer("dim1"))}};
    }, Saved::SizesOnly);
    differentiateWith(r.definition("permute"), [](const DerivativeArgs& d) {
        std::vector<int64_t> dims = d.args.ints("dims"), inverse(dims.size());
        for (size_t i = 0; i < dims.size(); ++i) {
            int64_t dim = dims[i] < 0 ? dims[i] + static_cast<int64_t>(dims.size()) : dims[i];
            inverse[static_cast<size_t>(dim)] = static_cast<int64_t>(i);
        }
        return ArgumentGradients{{"self", grad::call("permute", {d.grad, IValue::intList(inverse)})}};
    }, Saved::SizesOnly);
    // contiguous: the same values, so the same gradient.
    differentiateWith(r.definition("contiguous"), [](const DerivativeArgs& d) { return ArgumentGradients{{"self", d.grad}}; },
                      Saved::SizesOnly);
    // slice, narrow and select: the gradient in its place among zeros. A slice with a step
    // first spreads it out: each element followed by step - 1 zeros, the run cut where self ends.
    differentiateWith(r.definition("slice"), [](const DerivativeArgs& d) {
        const Tensor& self = d.like("self");
        const int64_t dim = wrapDim(d.args.integer("dim"), self.dim()), size = self.size(dim), step = d.args.integer("step");
        int64_t start = d.args["start"].isNone() ? 0 : d.args.integer("start");
        start = std::clamp<int64_t>(start < 0 ? start + size : start, 0, size);
        Tensor part = d.grad;
        if (step != 1 && part.size(dim) > 0) {
            Shape gaps = part.sizes();
            gaps.insert(gaps.begin() + dim + 1, step - 1);
            Tensor spread = grad::call("cat", {IValue::list({grad::call("unsqueeze", {part, dim + 1}), grad::zeros(gaps, part)}), dim + 1});
            Shape merged = part.sizes();
            merged[static_cast<size_t>(dim)] *= step;
            part = grad::call("narrow", {grad::reshape(spread, merged), dim, int64_t{0},
                                         std::min(merged[static_cast<size_t>(dim)], size - start)});
        }
        return ArgumentGradients{{"self", grad::placeInto(part, self.sizes(), dim, start)}};
    }, Saved::SizesOnly);
    differentiateWith(r.definition("narrow"), [](const DerivativeArgs& d) {
        const Tensor& self = d.input("self");
        const int64_t dim = wrapDim(d.args.integer("dim"), self.dim()), start = d.args.integer("start");
        return ArgumentGradients{{"self", grad::placeInto(d.grad, self.sizes(), dim, start < 0 ? start + self.size(dim) : start)}};
    }, Saved::SizesOnly);
    differentiateWith(r.definition("select"), [](const DerivativeArgs& d) {
        const Tensor& self = d.input("self");
        const int64_t dim = wrapDim(d.args.integer("dim"), self.dim()), index = d.args.integer("index");
        Tensor part = grad::call("unsqueeze", {d.grad, dim});
        return ArgumentGradients{{"self", grad::placeInto(part, self.sizes(), dim, index < 0 ? index + self.size(dim) : index)}};
    }, Saved::SizesOnly);
    differentiateWith(r.definition("expand"), [](const DerivativeArgs& d) {
        return ArgumentGradients{{"self", grad::sumToShape(d.grad, d.input("self").sizes())}};
    }, Saved::SizesOnly);
    gradFnNamed(r.definition("narrow"), "SliceBackward0");  // PyTorch's narrow is a slice
    // unbind: the parts' gradients stacked back, zeros for a part that got none.
    differentiateWith(r.definition("unbind"), [](const DerivativeArgs& d) {
        if (!d.grads) throw ScriptError("RuntimeError", "the derivative for 'unbind' is not implemented.");
        const Tensor& self = d.like("self");
        const int64_t dim = wrapDim(d.args.integer("dim"), self.dim());
        Shape part = self.sizes();
        part.erase(part.begin() + dim);
        IValueList parts;
        for (int64_t i = 0; i < self.size(dim); ++i) {
            const size_t at = static_cast<size_t>(i);
            parts.emplace_back(at < d.grads->size() && (*d.grads)[at].defined() ? (*d.grads)[at] : grad::zeros(part, self));
        }
        return ArgumentGradients{{"self", grad::call("stack", {IValue::list(std::move(parts)), dim})}};
    }, Saved::SizesOnly);
    gradFnNamedBy(r.definition("squeeze"), [](const BoundArgs& a) { return a["dim"].isNone() ? "SqueezeBackward0" : "SqueezeBackward1"; });
}

}  // namespace

void registerViewOps(OpRegistry& r) {
    const OpFlags both{};
    const OpFlags methodOnly{false, true, false};

    addView(r, "view", "view(Tensor self, int[] size) -> Tensor", methodOnly, lowerReshape, [](const BoundArgs& a, const Tensor& self) {
        Shape shape = inferSize(a.ints("size"), self.numel());
        auto strides = viewStrides(self.sizes(), self.strides(), shape);
        if (!strides)
            throw ScriptError("RuntimeError",
                              "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
                              "contiguous subspaces). Use .reshape(...) instead.");
        return ViewGeometry{shape, *strides, self.storageOffset()};
    });
    OpDef& reshape = r.add(reshapeLike("reshape", "reshape(Tensor self, int[] shape) -> Tensor", both,
                      [](const BoundArgs& a, const Tensor& self) { return inferSize(a.ints("shape"), self.numel()); }));
    lowerWith(reshape, lowerReshape);
    OpDef& flatten = r.add(reshapeLike("flatten", "flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor", both,
                      [](const BoundArgs& a, const Tensor& self) {
                          if (self.dim() == 0) return Shape{1};
                          int64_t s = wrapDim(a.integer("start_dim"), self.dim()), e = wrapDim(a.integer("end_dim"), self.dim());
                          if (s > e) throw ScriptError("RuntimeError", "flatten() has invalid args: start_dim cannot come after end_dim");
                          Shape shape(self.sizes().begin(), self.sizes().begin() + s);
                          int64_t merged = 1;
                          for (int64_t i = s; i <= e; ++i) merged *= self.sizes()[static_cast<std::size_t>(i)];
                          shape.push_back(merged);
                          shape.insert(shape.end(), self.sizes().begin() + e + 1, self.sizes().end());
                          return shape;
                      }));
    lowerWith(flatten, lowerReshape);
    addView(r, "permute", "permute(Tensor self, int[] dims) -> Tensor", both, lowerPermute,
            [](const BoundArgs& a, const Tensor& self) { return permuteGeometry(self, a.ints("dims")); });
    addView(r, "transpose", "transpose(Tensor self, int dim0, int dim1) -> Tensor", both, lowerTranspose, [](const BoundArgs& a, const Tensor& self) {
        return transposeGeometry(self, a.integer("dim0"), a.integer("dim1"));
    });
    addView(r, "t", "t(Tensor self) -> Tensor", both, lowerT, [](const BoundArgs&, const Tensor& self) {
        if (self.dim() > 2)
            throw ScriptError("RuntimeError", fmt::format("t() expects a tensor with <= 2 dimensions, but self is {}D", self.dim()));
        return self.dim() < 2 ? ViewGeometry{self.sizes(), self.strides(), self.storageOffset()} : transposeGeometry(self, 0, 1);
    });
    addView(r, "unsqueeze", "unsqueeze(Tensor self, int dim) -> Tensor", both, lowerRestride, [](const BoundArgs& a, const Tensor& self) {
        std::size_t d = static_cast<std::size_t>(wrapDim(a.integer("dim"), self.dim() + 1));
        ViewGeometry g{self.sizes(), self.strides(), self.storageOffset()};
        int64_t stride = d < self.sizes().size() ? self.sizes()[d] * self.strides()[d] : 1;
        g.sizes.insert(g.sizes.begin() + static_cast<std::ptrdiff_t>(d), 1);
        g.strides.insert(g.strides.begin() + static_cast<std::ptrdiff_t>(d), stride);
        return g;
    });
    addView(r, "squeeze", "squeeze(Tensor self, int[]? dim=None) -> Tensor", both, lowerRestride, [](const BoundArgs& a, const Tensor& self) {
        // dim=() squeezes nothing (a reduction's empty dims would mean all of them)
        std::vector<bool> mask = a["dim"].isNone()       ? std::vector<bool>(self.sizes().size(), true)
                                 : a.ints("dim").empty() ? std::vector<bool>(self.sizes().size(), false)
                                                         : reductionMask(a.ints("dim"), self.dim());
        ViewGeometry g{{}, {}, self.storageOffset()};
        for (std::size_t i = 0; i < self.sizes().size(); ++i) {
            if (mask[i] && self.sizes()[i] == 1) continue;
            g.sizes.push_back(self.sizes()[i]);
            g.strides.push_back(self.strides()[i]);
        }
        return g;
    });
    addView(r, "expand", "expand(Tensor self, int[] size, *, bool implicit=False) -> Tensor", methodOnly, lowerExpand,
            [](const BoundArgs& a, const Tensor& self) {
                std::vector<int64_t> size = a.ints("size");
                if (size.size() < self.sizes().size())
                    throw ScriptError("RuntimeError",
                                      fmt::format("expand(torch.{}Tensor{{{}}}, size={}): the number of sizes provided ({}) must be greater or "
                                                  "equal to the number of dimensions in the tensor ({})",
                                                  dtypeScalarName(self.dtype()), shapeStr(self.sizes()), shapeStr(Shape(size.begin(), size.end())),
                                                  size.size(), self.dim()));
                std::size_t lead = size.size() - self.sizes().size();
                ViewGeometry g{Shape(size.size()), Shape(size.size()), self.storageOffset()};
                for (std::size_t i = 0; i < size.size(); ++i) {
                    if (i < lead) {
                        if (size[i] < 0)
                            throw ScriptError("RuntimeError", fmt::format("The expanded size of the tensor ({}) isn't allowed in a leading, "
                                                                          "non-existing dimension {}",
                                                                          size[i], i));
                        g.sizes[i] = size[i];
                        g.strides[i] = 0;
                        continue;
                    }
                    int64_t have = self.sizes()[i - lead];
                    int64_t want = size[i] == -1 ? have : size[i];
                    if (have != want && have != 1)
                        throw ScriptError("RuntimeError",
                                          fmt::format("The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton "
                                                      "dimension {}.  Target sizes: {}.  Tensor sizes: {}",
                                                      want, have, i, shapeStr(Shape(size.begin(), size.end())), shapeStr(self.sizes())));
                    g.sizes[i] = want;
                    g.strides[i] = have == want ? self.strides()[i - lead] : 0;
                }
                return g;
            });
    addView(r, "select", "select(Tensor self, int dim, int index) -> Tensor", both, lowerSelect, [](const BoundArgs& a, const Tensor& self) {
        if (self.dim() == 0) throw ScriptError("IndexError", "select() cannot be applied to a 0-dim tensor.");
        std::size_t d = static_cast<std::size_t>(wrapDim(a.integer("dim"), self.dim()));
        int64_t size = self.sizes()[d], index = a.integer("index");
        if (index < -size || index >= size)
            throw ScriptError("IndexError", fmt::format("index {} is out of bounds for dimension {} with size {}", index, d, size));
        if (index < 0) index += size;
        ViewGeometry g{self.sizes(), self.strides(), self.storageOffset() + index * self.strides()[d]};
        g.sizes.erase(g.sizes.begin() + static_cast<std::ptrdiff_t>(d));
        g.strides.erase(g.strides.begin() + static_cast<std::ptrdiff_t>(d));
        return g;
    });
    // slice backs Python's x[a:b:c]; PyTorch has no torch.slice or Tensor.slice.
    addView(r, "slice", "slice(Tensor self, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor", {false, false, false}, lowerSlice,
            [](const BoundArgs& a, const Tensor& self) {
                return sliceGeometry(self, a.integer("dim"), optInt(a["start"]), optInt(a["end"]), a.integer("step"));
            });
    addView(r, "narrow", "narrow(Tensor self, int dim, int start, int length) -> Tensor", both, lowerNarrow, [](const BoundArgs& a, const Tensor& self) {
        if (self.dim() == 0) throw ScriptError("RuntimeError", "narrow() cannot be applied to a 0-dim tensor.");
        int64_t d = wrapDim(a.integer("dim"), self.dim());
        int64_t size = self.sizes()[static_cast<std::size_t>(d)];
        int64_t start = a.integer("start"), length = a.integer("length");
        if (start < -size || start > size)
            throw ScriptError("IndexError", fmt::format("start out of range (expected to be in range of [{}, {}], but got {})", -size, size, start));
        if (start < 0) start += size;
        if (length < 0) throw ScriptError("RuntimeError", "narrow(): length must be non-negative.");
        if (start + length > size)
            throw ScriptError("RuntimeError", fmt::format("start ({}) + length ({}) exceeds dimension size ({}).", start, length, size));
        return sliceGeometry(self, d, start, start + length, 1);
    });
    OpDef& asStrided = addView(r, "as_strided", "as_strided(Tensor self, int[] size, int[] stride, int? storage_offset=None) -> Tensor", both, nullptr,
            [](const BoundArgs& a, const Tensor& self) {
                std::vector<int64_t> size = a.ints("size"), stride = a.ints("stride");
                if (size.size() != stride.size())
                    throw ScriptError("RuntimeError", fmt::format("mismatch in length of strides and shape"));
                int64_t offset = a["storage_offset"].isNone() ? self.storageOffset() : a.integer("storage_offset");
                for (int64_t s : size)
                    if (s < 0) throw ScriptError("RuntimeError", fmt::format("Trying to create tensor with negative dimension {}: {}", s, shapeStr(size)));
                for (int64_t s : stride)
                    if (s < 0)
                        throw ScriptError("RuntimeError", fmt::format("as_strided: Negative strides are not supported at the moment, got strides: {}",
                                                                      shapeStr(stride)));
                if (offset < 0) throw ScriptError("RuntimeError", fmt::format("Tensor: invalid storage offset {}", offset));
                ViewGeometry g{Shape(size.begin(), size.end()), Shape(stride.begin(), stride.end()), offset};
                if (self.storage() && shapeNumel(g.sizes) > 0) {
                    int64_t last = offset;
                    bool overflow = false;
                    for (std::size_t i = 0; i < size.size(); ++i) {
                        int64_t span = 0;
                        overflow = overflow || __builtin_mul_overflow(size[i] - 1, stride[i], &span) || __builtin_add_overflow(last, span, &last);
                    }
                    int64_t available = static_cast<int64_t>(self.storage()->nbytes() / dtypeSize(self.dtype()));
                    if (overflow)
                        throw ScriptError("RuntimeError", fmt::format("as_strided: sizes {} and strides {} overflow", shapeStr(g.sizes), shapeStr(g.strides)));
                    if (last >= available)
                        throw ScriptError("RuntimeError",
                                          fmt::format("setStorage: sizes {}, strides {}, storage offset {}, and itemsize {} requiring a storage size "
                                                      "of {} are out of bounds for storage of size {}",
                                                      shapeStr(g.sizes), shapeStr(g.strides), offset, dtypeSize(self.dtype()),
                                                      (last + 1) * static_cast<int64_t>(dtypeSize(self.dtype())), self.storage()->nbytes()));
                }
                return g;
            });
    runEagerly(asStrided, "an arbitrary view of storage, which loop-IR indexing does not express");
    // Each element of the result is the storage element at offset + sum(i * stride). A storage
    // element's gradient sums the gradients of the result's elements there (one-hot positions
    // times the gradient: there is no scatter op), divided among self's elements that share it
    // (an expanded self), and self's gradient reads it through self's own geometry.
    differentiateWith(asStrided, [](const DerivativeArgs& d) {
        const Tensor& self = d.like("self");
        const std::vector<int64_t> size = d.args.ints("size"), stride = d.args.ints("stride");
        const int64_t offset = d.args["storage_offset"].isNone() ? self.storageOffset() : d.args.integer("storage_offset");
        auto lastPosition = [](const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides, int64_t start) {
            for (size_t i = 0; i < sizes.size(); ++i) start += sizes[i] > 0 ? (sizes[i] - 1) * strides[i] : 0;
            return start;
        };
        const Shape selfSizes = self.sizes(), selfStrides = self.strides();
        const int64_t selfLast = lastPosition({selfSizes.begin(), selfSizes.end()}, {selfStrides.begin(), selfStrides.end()}, self.storageOffset());
        if (self.numel() > 0 && d.grad.numel() > 0 && (offset < self.storageOffset() || lastPosition(size, stride, offset) > selfLast))
            throw ScriptError("RuntimeError", "the derivative for 'as_strided' of a view reaching outside its input's elements is not implemented.");
        const int64_t extent = 1 + std::max(lastPosition(size, stride, offset),
                                            lastPosition({selfSizes.begin(), selfSizes.end()}, {selfStrides.begin(), selfStrides.end()},
                                                         self.storageOffset()));
        const Tensor storage = grad::arange(extent, d.grad);
        // [elements, extent]: 1 where an element of a view of the storage sits.
        auto oneHot = [&](const IValue& sizes, const IValue& strides, int64_t start) {
            Tensor positions = grad::reshape(grad::call("as_strided", {storage, sizes, strides, start}), {-1, 1});
            return grad::call("to", {grad::call("eq", {positions, storage}), d.grad.dtype()});
        };
        Tensor resultHot = oneHot(IValue::intList(size), IValue::intList(stride), offset);
        Tensor flatGrad = grad::reshape(grad::call("contiguous", {d.grad}), {-1});
        Tensor perElement = grad::call("matmul", {flatGrad, resultHot});  // [extent]
        Tensor sharing = grad::call("sum", {oneHot(IValue::intList(selfSizes), IValue::intList(selfStrides), self.storageOffset()),
                                            IValue::intList({0})});
        perElement = grad::div(perElement, grad::call("clamp", {sharing, 1}));
        return ArgumentGradients{{"self", grad::call("as_strided", {perElement, IValue::intList(selfSizes), IValue::intList(selfStrides),
                                                                     self.storageOffset()})}};
    }, Saved::SizesOnly);
    addView(r, "detach", "detach(Tensor self) -> Tensor", both, lowerIdentity, [](const BoundArgs&, const Tensor& self) {
        return ViewGeometry{self.sizes(), self.strides(), self.storageOffset()};
    }, false);

    OpDef unbind;
    unbind.name = "unbind";
    unbind.schema = "unbind(Tensor self, int dim=0) -> Tensor[]";
    unbind.kernel = [](const BoundArgs& a) {
        const Tensor& self = a.tensor("self");
        if (self.dim() == 0) throw ScriptError("IndexError", "Dimension specified as 0 but tensor has no dimensions");
        int64_t d = wrapDim(a.integer("dim"), self.dim());
        IValueList parts;
        for (int64_t i = 0; i < self.sizes()[static_cast<std::size_t>(d)]; ++i) {
            ViewGeometry g{self.sizes(), self.strides(), self.storageOffset() + i * self.strides()[static_cast<std::size_t>(d)]};
            g.sizes.erase(g.sizes.begin() + d);
            g.strides.erase(g.strides.begin() + d);
            parts.emplace_back(applyView(self, g));
        }
        return IValue::tuple(std::move(parts));
    };
    unbind.infer = unbind.kernel;
    unbind.mayAlias = true;
    lowerWith(r.add(std::move(unbind)), lowerUnbind);

    OpDef contiguous;
    contiguous.name = "contiguous";
    contiguous.schema = "contiguous(Tensor self, *, MemoryFormat memory_format=0) -> Tensor";
    contiguous.isFunction = false;
    contiguous.kernel = [](const BoundArgs& a) {
        const Tensor& self = a.tensor("self");
        memoryFormatArgument(a["memory_format"], MemoryFormat::Contiguous);  // channels_last refused
        if (self.isContiguous()) return IValue(self);
        if (self.isMeta()) return IValue(metaTensor(contiguousMeta(self.sizes(), self.dtype())));
        Tensor copy = contiguousCopy(self);
        copy.setRequiresGrad(self.requiresGrad());
        return IValue(copy);
    };
    contiguous.infer = contiguous.kernel;
    contiguous.mayAlias = true;
    OpDef& contiguousOp = lowerWith(r.add(std::move(contiguous)), lowerIdentity);
    gradFnNamed(contiguousOp, "CloneBackward0");
    registerViewDerivatives(r);
}

}  // namespace fusescope
