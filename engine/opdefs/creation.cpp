// Creation ops (ones, arange, randn, tensor, *_like, ...) and conversions (to, float,
// clone, requires_grad_). A meta `device=` argument makes call() run infer instead.
// Constants and aranges lower to element functions, conversions to a dtype cast; random
// values and data from Python run eagerly.

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "autograd/derivative_ops.h"
#include "core/error.h"
#include "core/grad_mode.h"
#include "core/random.h"
#include "core/device_context.h"
#include "lower/elementwise_rules.h"
#include "opdefs/op_families.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

const std::string kFactoryKwargs = ", ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor";

// Where a creation op puts its result: device=, else the device of the tensor it is made
// like (zeros_like), else the default device.
Device factoryDevice(const BoundArgs& a) {
    const IValue& d = a["device"];
    bool like = std::find(a.names.begin(), a.names.end(), "self") != a.names.end() && a["self"].isTensor();
    Device device = !d.isNone() ? d.toDevice() : like ? a["self"].toTensor().device() : defaultDevice();
    requireUsable(device);
    return concreteDevice(device);
}

DType dtypeOr(const BoundArgs& a, DType fallback) { return a["dtype"].isNone() ? fallback : a["dtype"].toDType(); }

// A creation op: meta() gives the output; fill() writes its values; `lowering` (none: it runs
// eagerly, saying why) compiles it. requires_grad is checked and applied for both infer and
// kernel.
OpDef& addFactory(OpRegistry& r, std::string name, std::string schema, OpFlags flags, MetaFn meta, LoweringRule lowering,
                  std::function<void(const BoundArgs&, const Tensor&)> fill) {
    OpDef d = makeOp(std::move(name), std::move(schema), flags, meta, nullptr);
    auto finish = [](const BoundArgs& a, Tensor t) {
        bool grad = a.flag("requires_grad");
        checkRequiresGrad(t.dtype(), grad);
        t.setRequiresGrad(grad);
        return IValue(t);
    };
    d.infer = [meta, finish](const BoundArgs& a) { return finish(a, metaTensor(meta(a))); };
    d.kernel = [meta, fill, finish](const BoundArgs& a) {
        Device device = factoryDevice(a);
        Tensor out = allocate(meta(a));
        fill(a, out);
        out.setDevice(device);
        return finish(a, out);
    };
    OpDef& op = r.add(std::move(d));
    return lowering ? lowerWith(op, std::move(lowering)) : op;
}

void fillValue(const Tensor& out, const IValue& value) { copyInto(out, wrapScalar(value)); }

// Writes gen(i) to each element in row-major order.
template <class G>
void fillGenerated(const Tensor& out, G gen) {
    int64_t i = 0;
    DType dt = out.dtype();
    forEachElement(out.sizes(), {iterOperand(out, out.sizes())}, [&](char* const* p) { storeDouble(p[0], dt, gen(i++)); });
}

// linspace for float/double, bit for bit as PyTorch's CPU kernel (linspace_kernel) computes it:
// in the output type (step_t = scalar_t), the first half stepping up from start and the second
// down from end, each element one fused multiply-add (the kernel build enables FMA, and the
// compiler contracts `start + step * idx`). Checked against PyTorch 2.15 (AVX512) for float32 and
// float64 across many start/end/steps.
template <typename T>
void fillLinspaceFused(const Tensor& out, double startD, double endD, int64_t steps) {
    const T start = static_cast<T>(startD), end = static_cast<T>(endD);
    const T step = (end - start) / static_cast<T>(steps - 1);
    const int64_t half = steps / 2;
    fillGenerated(out, [=](int64_t idx) {
        return static_cast<double>(idx < half ? std::fma(step, static_cast<T>(idx), start)
                                              : std::fma(-step, static_cast<T>(steps - idx - 1), end));
    });
}

DType scalarDType(const IValue& v) {
    if (v.isBool()) return DType::Bool;
    if (v.isInt()) return DType::Int64;
    return defaultFloat();
}

// ---- torch.tensor(data) ----------------------------------------------------------------
struct DataInfo {
    Shape sizes;
    DType dtype = DType::Bool;
    bool sawValue = false;
};

void scanData(const IValue& v, std::size_t depth, DataInfo& info) {
    if (v.isSequence()) {
        const auto& items = v.toSequence()->items;
        int64_t n = static_cast<int64_t>(items.size());
        if (depth == info.sizes.size()) {
            if (info.sawValue) throw ScriptError("ValueError", fmt::format("expected sequence of length {} at dim {} (got {})", 0, depth, n));
            info.sizes.push_back(n);
        } else if (info.sizes[depth] != n) {
            throw ScriptError("ValueError", fmt::format("expected sequence of length {} at dim {} (got {})", info.sizes[depth], depth, n));
        }
        for (const IValue& item : items) scanData(item, depth + 1, info);
        return;
    }
    if (depth != info.sizes.size()) throw ScriptError("TypeError", "not a sequence");
    DType t;
    if (v.isTensor()) {
        if (v.toTensor().numel() != 1 || v.toTensor().dim() != 0)
            throw ScriptError("ValueError", "only one element tensors can be converted to Python scalars");
        t = v.toTensor().dtype();
    } else if (v.isNumber()) {
        t = scalarDType(v);
    } else {
        throw ScriptError("TypeError", fmt::format("new(): invalid data type '{}'", v.isString() ? "str" : "object"));
    }
    info.dtype = info.sawValue ? promoteTypes(info.dtype, t) : t;
    info.sawValue = true;
}

DataInfo dataInfo(const IValue& data) {
    DataInfo info;
    if (data.isTensor()) {
        info.sizes = data.toTensor().sizes();
        info.dtype = data.toTensor().dtype();
        return info;
    }
    scanData(data, 0, info);
    if (!info.sawValue) info.dtype = defaultFloat();  // torch.tensor([]) is float32
    return info;
}

void flattenData(const IValue& v, std::vector<IValue>& out) {
    if (v.isSequence()) {
        for (const IValue& item : v.toSequence()->items) flattenData(item, out);
        return;
    }
    out.push_back(v);
}

// ---- conversions -----------------------------------------------------------------------
// The result of to()/float()/...: self when nothing changes, else a converted copy.
Tensor convert(const Tensor& self, DType dtype, Device device, bool copy) {
    device = concreteDevice(device);
    if (!copy && dtype == self.dtype() && device == self.device()) return self;
    Tensor out;
    if (self.isMeta() || device.isMeta()) {
        out = metaTensor({self.sizes(), pointwiseStrides(self.sizes(), {self}), dtype});
    } else {
        requireUsable(device);
        out = castCopy(self, dtype);
        out.setDevice(concreteDevice(device));
    }
    out.setRequiresGrad(self.requiresGrad() && isFloating(dtype));
    return out;
}

// A conversion of self; `lowering` as addFactory's.
OpDef& addConversion(OpRegistry& r, std::string name, std::string schema, OpFlags flags, LoweringRule lowering,
                     std::function<Tensor(const BoundArgs&, const Tensor& self)> fn) {
    OpDef d;
    d.name = std::move(name);
    d.schema = std::move(schema);
    d.isFunction = flags.function;
    d.isMethod = flags.method;
    d.kernel = [fn](const BoundArgs& a) { return IValue(fn(a, a.tensor("self"))); };
    d.infer = d.kernel;
    d.mayAlias = true;  // self when nothing changes
    OpDef& op = r.add(std::move(d));
    return lowering ? lowerWith(op, std::move(lowering)) : op;
}

// ---- lowerings -----------------------------------------------------------------------------

// full / zeros / ones and their _like forms: a constant of the output's shape and dtype
// (`value`, or the fill_value argument).
LoweringRule filled(std::optional<double> value) {
    return [value](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        double v = value ? *value : a.bound().number("fill_value");
        DType out = c.meta().dtype;
        LValue constant = c.lazy(c.outputSizes(), out, [v, out](LoopBodyBuilder& b, const std::vector<IndexExpr>&) { return b.constant(v, out); }, {});
        constant.filled = true;
        return {constant};
    };
}

LoweringRule arange(bool hasStart) {
    return [hasStart](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        double start = hasStart ? a.bound().number("start") : 0;
        double step = hasStart ? a.bound().number("step") : 1;
        DType out = c.meta().dtype;
        return {c.lazy(c.outputSizes(), out,
                       [start, step, out](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                           int i = b.indexExpr(index.at(0), DType::Int64);
                           DType math = isFloating(out) ? DType::Float64 : DType::Int64;
                           int v = b.call(LoopOpKind::Add,
                                          {b.call(LoopOpKind::Mul, {b.toDtype(i, math), b.constant(step, math)}, math), b.constant(start, math)},
                                          math);
                           return b.toDtype(v, out);
                       },
                       {})};
    };
}

std::vector<LValue> lowerClone(LoweringContext& c, const LoweringArgs& a) { return {identity(c, a.tensor("self"))}; }

// realize: its argument as a buffer of its own.
std::vector<LValue> lowerRealize(LoweringContext& c, const LoweringArgs& a) {
    return {c.realize(identity(c, a.tensor("self")), nullptr, "torch._inductor.test_operators.realize()")};
}

const char* const kRandom = "random numbers come from the eager generator, so compiled and eager runs draw the same values";
const char* const kUninitialised = "uninitialised memory has no value to compute";
const char* const kDeviceMove = "moves a tensor between devices; a compiled graph runs on one device";

}  // namespace

namespace {

// clone: the same values, so the same gradient.
void registerCreationDerivatives(OpRegistry& r) {
    differentiateWith(r.definition("clone"), [](const DerivativeArgs& d) { return ArgumentGradients{{"self", d.grad}}; },
                      Saved::SizesOnly);
    // A conversion's gradient is converted back to the input's dtype and device; every
    // floating one is PyTorch's _to_copy. Where the device did not change only the dtype is
    // named: AOT Autograd traces on meta stand-ins, and naming their device would make its
    // backward graph move real gradients to the meta device.
    for (const char* name : {"to.dtype", "to.device", "to.other", "cpu", "cuda", "float", "double", "half", "bfloat16", "type_as"})
        differentiateWith(gradFnNamed(r.definition(name), "ToCopyBackward0"), [](const DerivativeArgs& d) {
            const Tensor& self = d.like("self");
            if (self.device() == d.grad.device()) return ArgumentGradients{{"self", grad::call("to.dtype", {d.grad, IValue(self.dtype())})}};
            return ArgumentGradients{{"self", grad::call("to.device", {d.grad, IValue(self.device()), IValue(self.dtype())})}};
        }, Saved::SizesOnly);
    for (const char* name : {"to.other", "type_as"}) r.definition(name).notDifferentiable = {"other"};  // only its dtype and device count
}

}  // namespace

void registerCreationOps(OpRegistry& r) {
    const OpFlags functionOnly{true, false, false};
    const OpFlags methodOnly{false, true, false};
    const OpFlags both{};

    auto sized = [](DType fallback) {
        return [fallback](const BoundArgs& a) { return contiguousMeta(Shape(a.ints("size")), dtypeOr(a, fallback)); };
    };
    auto noFill = [](const BoundArgs&, const Tensor&) {};
    addFactory(r, "zeros", "zeros(int[] size, *" + kFactoryKwargs, functionOnly, sized(defaultFloat()), filled(0.0), noFill);
    runEagerly(addFactory(r, "empty", "empty(int[] size, *" + kFactoryKwargs, functionOnly, sized(defaultFloat()), nullptr, noFill), kUninitialised);
    auto strided = [](const BoundArgs& a) {
        Shape sizes(a.ints("size")), strides(a.ints("stride"));
        if (sizes.size() != strides.size()) throw ScriptError("RuntimeError", "mismatch in length of strides and shape");
        return ResultMeta{sizes, strides, dtypeOr(a, defaultFloat())};
    };
    runEagerly(addFactory(r, "empty_strided", "empty_strided(int[] size, int[] stride, *" + kFactoryKwargs, functionOnly, strided,
                          nullptr, noFill),
               kUninitialised);
    addFactory(r, "ones", "ones(int[] size, *" + kFactoryKwargs, functionOnly, sized(defaultFloat()), filled(1.0),
               [](const BoundArgs&, const Tensor& out) { fillValue(out, IValue(int64_t{1})); });
    addFactory(r, "full", "full(int[] size, Scalar fill_value, *" + kFactoryKwargs, functionOnly,
               [](const BoundArgs& a) { return contiguousMeta(Shape(a.ints("size")), dtypeOr(a, scalarDType(a["fill_value"]))); }, filled(std::nullopt),
               [](const BoundArgs& a, const Tensor& out) { fillValue(out, a["fill_value"]); });
    auto checkFloatRandom = [](const char* what, DType t) {
        if (!isFloating(t))
            throw ScriptError("RuntimeError", fmt::format("\"{}\" not implemented for '{}'", what, dtypeScalarName(t)));
    };
    runEagerly(addFactory(r, "rand", "rand(int[] size, *" + kFactoryKwargs, functionOnly, sized(defaultFloat()), nullptr,
               [checkFloatRandom](const BoundArgs&, const Tensor& out) {
                   checkFloatRandom("check_uniform_bounds", out.dtype());
                   fillGenerated(out, [](int64_t) { return randomUniform(); });
               }), kRandom);
    runEagerly(addFactory(r, "randn", "randn(int[] size, *" + kFactoryKwargs, functionOnly, sized(defaultFloat()), nullptr,
               [checkFloatRandom](const BoundArgs&, const Tensor& out) {
                   checkFloatRandom("normal_kernel_cpu", out.dtype());
                   fillGenerated(out, [](int64_t) { return randomNormal(); });
               }), kRandom);
    auto randintFill = [](const BoundArgs& a, const Tensor& out) {
        int64_t low = a["low"].isNone() ? 0 : a.integer("low"), high = a.integer("high");
        if (low >= high)
            throw ScriptError("RuntimeError", fmt::format("random_ expects 'from' to be less than 'to', but got from={} >= to={}", low, high));
        DType dt = out.dtype();
        forEachElement(out.sizes(), {iterOperand(out, out.sizes())}, [&](char* const* p) { storeInt(p[0], dt, randomInt(low, high)); });
    };
    runEagerly(addFactory(r, "randint", "randint(int high, int[] size, *, int? low=None" + kFactoryKwargs, functionOnly, sized(DType::Int64),
                          nullptr, randintFill),
               kRandom);
    runEagerly(addFactory(r, "randint.low", "randint.low(int low, int high, int[] size, *" + kFactoryKwargs, functionOnly, sized(DType::Int64), nullptr,
               randintFill), kRandom);

    // arange(end) / arange(start, end, step=1): int64 when every bound is an int.
    auto arangeMeta = [](const BoundArgs& a) {
        bool hasStart = a.names[0] == "start";
        double start = hasStart ? a.number("start") : 0.0, end = a.number("end"), step = hasStart ? a.number("step") : 1.0;
        if (step == 0) throw ScriptError("RuntimeError", "step must be nonzero");
        if (!std::isfinite(start) || !std::isfinite(end)) throw ScriptError("RuntimeError", fmt::format("unsupported range: {} -> {}", start, end));
        if ((step > 0 && end < start) || (step < 0 && end > start))
            throw ScriptError("RuntimeError", "upper bound and larger bound inconsistent with step sign");
        bool allInt = a["end"].isInt() && (!hasStart || (a["start"].isInt() && a["step"].isInt()));
        double count = std::ceil((end - start) / step);
        if (!(count >= 0 && count < 0x1p63)) throw ScriptError("RuntimeError", "invalid size, possible overflow?");
        int64_t n = static_cast<int64_t>(count);
        return contiguousMeta({n}, dtypeOr(a, allInt ? DType::Int64 : defaultFloat()));
    };
    auto arangeFill = [](const BoundArgs& a, const Tensor& out) {
        bool hasStart = a.names[0] == "start";
        if (hasStart && a["start"].isInt() && a["step"].isInt() && !isFloating(out.dtype())) {
            int64_t start = a.integer("start"), step = a.integer("step");
            for (int64_t i = 0; i < out.numel(); ++i) storeInt(bytePtr(out) + i * static_cast<int64_t>(dtypeSize(out.dtype())), out.dtype(), start + i * step);
            return;
        }
        double start = hasStart ? a.number("start") : 0.0, step = hasStart ? a.number("step") : 1.0;
        fillGenerated(out, [=](int64_t i) { return start + step * static_cast<double>(i); });
    };
    addFactory(r, "arange", "arange(Scalar end, *" + kFactoryKwargs, functionOnly, arangeMeta, arange(false), arangeFill);
    addFactory(r, "arange.start", "arange.start(Scalar start, Scalar end, Scalar step=1, *" + kFactoryKwargs, functionOnly, arangeMeta, arange(true),
               arangeFill);
    runEagerly(addFactory(r, "linspace", "linspace(Scalar start, Scalar end, int steps, *" + kFactoryKwargs, functionOnly,
               [](const BoundArgs& a) {
                   int64_t steps = a.integer("steps");
                   if (steps < 0) throw ScriptError("RuntimeError", "number of steps must be non-negative");
                   return contiguousMeta({steps}, dtypeOr(a, defaultFloat()));
               }, nullptr,
               [](const BoundArgs& a, const Tensor& out) {
                   // PyTorch's CPU kernel (linspace_kernel): the first half steps up from start, the
                   // second down from end, computed in the output type for floating dtypes (step_t =
                   // scalar_t) and in double for integral ones; one step is just start.
                   double start = a.number("start"), end = a.number("end");
                   int64_t steps = out.numel();
                   if (steps == 1) {
                       fillGenerated(out, [=](int64_t) { return start; });
                       return;
                   }
                   if (out.dtype() == DType::Float32) {
                       fillLinspaceFused<float>(out, start, end, steps);
                       return;
                   }
                   if (out.dtype() == DType::Float64) {
                       fillLinspaceFused<double>(out, start, end, steps);
                       return;
                   }
                   int64_t half = steps / 2;
                   double step = (end - start) / static_cast<double>(steps - 1);
                   fillGenerated(out, [=](int64_t i) {
                       return i < half ? start + step * static_cast<double>(i) : end - step * static_cast<double>(steps - i - 1);
                   });
               }), "not lowered yet");

    // *_like: the input's shape and (dense) layout, or a contiguous one (contiguous_format).
    auto likeMeta = [](const BoundArgs& a) {
        const Tensor& self = a.tensor("self");
        DType dt = a["dtype"].isNone() ? self.dtype() : a["dtype"].toDType();
        bool preserve = memoryFormatArgument(a["memory_format"], MemoryFormat::Preserve) == MemoryFormat::Preserve;
        return ResultMeta{self.sizes(), preserve ? pointwiseStrides(self.sizes(), {self}) : contiguousStrides(self.sizes()), dt};
    };
    const std::string likeKwargs = ", ScalarType? dtype=None, Device? device=None, bool requires_grad=False, "
                                   "MemoryFormat? memory_format=None) -> Tensor";
    const std::string likeTail = "(Tensor self, *" + likeKwargs;
    addFactory(r, "zeros_like", "zeros_like" + likeTail, functionOnly, likeMeta, filled(0.0), noFill);
    runEagerly(addFactory(r, "empty_like", "empty_like" + likeTail, functionOnly, likeMeta, nullptr, noFill), kUninitialised);
    addFactory(r, "ones_like", "ones_like" + likeTail, functionOnly, likeMeta, filled(1.0),
               [](const BoundArgs&, const Tensor& out) { fillValue(out, IValue(int64_t{1})); });
    addFactory(r, "full_like", "full_like(Tensor self, Scalar fill_value, *" + likeKwargs, functionOnly, likeMeta, filled(std::nullopt),
               [](const BoundArgs& a, const Tensor& out) { fillValue(out, a["fill_value"]); });
    runEagerly(addFactory(r, "rand_like", "rand_like" + likeTail, functionOnly, likeMeta, nullptr, [checkFloatRandom](const BoundArgs&, const Tensor& out) {
        checkFloatRandom("check_uniform_bounds", out.dtype());
        fillGenerated(out, [](int64_t) { return randomUniform(); });
    }), kRandom);
    runEagerly(addFactory(r, "randn_like", "randn_like" + likeTail, functionOnly, likeMeta, nullptr, [checkFloatRandom](const BoundArgs&, const Tensor& out) {
        checkFloatRandom("normal_kernel_cpu", out.dtype());
        fillGenerated(out, [](int64_t) { return randomNormal(); });
    }), kRandom);

    runEagerly(addFactory(r, "tensor", "tensor(Any data, *" + kFactoryKwargs, functionOnly,
               [](const BoundArgs& a) {
                   DataInfo info = dataInfo(a["data"]);
                   return contiguousMeta(info.sizes, dtypeOr(a, info.dtype));
               }, nullptr,
               [](const BoundArgs& a, const Tensor& out) {
                   const IValue& data = a["data"];
                   if (data.isTensor()) {
                       copyInto(out, data.toTensor());
                       return;
                   }
                   std::vector<IValue> flat;
                   flattenData(data, flat);
                   DType dt = out.dtype();
                   char* base = bytePtr(out);
                   int64_t item = static_cast<int64_t>(dtypeSize(dt));
                   for (std::size_t i = 0; i < flat.size(); ++i) {
                       const IValue& v = flat[i];
                       char* p = base + static_cast<int64_t>(i) * item;
                       if (v.isTensor()) {
                           const Tensor& t = v.toTensor();
                           if (isFloating(t.dtype())) storeDouble(p, dt, t.item());
                           else storeInt(p, dt, t.readInt64(0));
                       } else if (v.isDouble()) {
                           storeDouble(p, dt, v.toDouble());
                       } else {
                           storeInt(p, dt, v.toInt());
                       }
                   }
               }), "makes a tensor from Python data");

    // ---- conversions ----
    // to(...) lowers to a cast.
    addConversion(r, "to.dtype", "to.dtype(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False) -> Tensor",
                              methodOnly, conversionRule("self"),
                              [](const BoundArgs& a, const Tensor& self) { return convert(self, a["dtype"].toDType(), self.device(), a.flag("copy")); });
    addConversion(r, "to.device",
                  "to.device(Tensor self, Device? device=None, ScalarType? dtype=None, bool non_blocking=False, bool copy=False) -> Tensor",
                  methodOnly, conversionRule("self"), [](const BoundArgs& a, const Tensor& self) {
                      Device device = a["device"].isNone() ? self.device() : a["device"].toDevice();
                      return convert(self, dtypeOr(a, self.dtype()), device, a.flag("copy"));
                  });
    addConversion(r, "to.other", "to.other(Tensor self, Tensor other, bool non_blocking=False, bool copy=False) -> Tensor",
                              methodOnly, conversionRule("self"),
                  [](const BoundArgs& a, const Tensor& self) {
                      const Tensor& other = a.tensor("other");
                      return convert(self, other.dtype(), other.device(), a.flag("copy"));
                  });
    runEagerly(addConversion(r, "cpu", "cpu(Tensor self) -> Tensor", methodOnly, nullptr,
                  [](const BoundArgs&, const Tensor& self) { return convert(self, self.dtype(), Device::cpu(), false); }), kDeviceMove);
    runEagerly(addConversion(r, "cuda", "cuda(Tensor self, Device? device=None, bool non_blocking=False) -> Tensor", methodOnly, nullptr,
                  [](const BoundArgs& a, const Tensor& self) {
                      Device device = a["device"].isNone() ? Device{Device::Kind::Cuda, -1} : a["device"].toDevice();
                      return convert(self, self.dtype(), device, false);
                  }), kDeviceMove);
    const std::pair<const char*, DType> casts[] = {{"float", DType::Float32}, {"double", DType::Float64}, {"half", DType::Float16},
                                                   {"bfloat16", DType::BFloat16}, {"int", DType::Int32},   {"long", DType::Int64},
                                                   {"bool", DType::Bool}};
    for (const auto& [name, dtype] : casts) {
        DType target = dtype;
        // half and bfloat16 run eagerly: generated code stores float32, float64, integers and bools only.
        bool stored = target != DType::Float16 && target != DType::BFloat16;
        OpDef& cast = addConversion(r, name, std::string(name) + "(Tensor self) -> Tensor", methodOnly, stored ? conversionRule("self") : nullptr,
                                    [target](const BoundArgs&, const Tensor& self) { return convert(self, target, self.device(), false); });
        if (!stored) runEagerly(cast, "generated code stores float32, float64, integers and bools only");
    }
    addConversion(r, "type_as", "type_as(Tensor self, Tensor other) -> Tensor", methodOnly, conversionRule("self"),
                  [](const BoundArgs& a, const Tensor& self) { return convert(self, a.tensor("other").dtype(), self.device(), false); });
    addConversion(r, "clone", "clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", both, lowerClone,
                  [](const BoundArgs& a, const Tensor& self) {
                      Tensor copy = convert(self, self.dtype(), self.device(), true);
                      bool contiguous = memoryFormatArgument(a["memory_format"], MemoryFormat::Preserve) == MemoryFormat::Contiguous;
                      return contiguous && !copy.isContiguous() ? contiguousCopy(copy) : copy;
                  })
        .mayAlias = false;  // always a copy
    // torch._inductor.test_operators.realize: a copy eagerly; the inductor backend makes
    // its argument a buffer of its own (seed 000 uses it to force two kernels' worth of work).
    addConversion(r, "realize", "realize(Tensor self) -> Tensor", OpFlags{false, false, false}, lowerRealize,
                  [](const BoundArgs&, const Tensor& self) { return convert(self, self.dtype(), self.device(), true); })
        .mayAlias = false;
    addConversion(r, "requires_grad_", "requires_grad_(Tensor self, bool requires_grad=True) -> Tensor", methodOnly, nullptr,
                  [](const BoundArgs& a, const Tensor& self) {
                      bool grad = a.flag("requires_grad");
                      checkRequiresGrad(self.dtype(), grad);
                      if (!self.isLeaf()) throw ScriptError("RuntimeError", kNonLeafRequiresGrad);
                      Tensor handle = self;
                      handle.setRequiresGrad(grad);
                      return handle;
                  });
    registerCreationDerivatives(r);
}

}  // namespace fusescope
