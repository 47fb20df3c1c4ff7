#include "ops/kernel_support.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>

#include <fmt/format.h>

#include "core/error.h"
#include "core/complex_parts.h"
#include "ops/byte_copy.h"

namespace fusescope {

int64_t wrapDim(int64_t dim, int64_t ndim) {
    int64_t n = std::max<int64_t>(ndim, 1);  // 0-dim tensors accept dim 0 and -1
    if (dim < -n || dim >= n)
        throw ScriptError("IndexError", fmt::format("Dimension out of range (expected to be in range of [{}, {}], but got {})",
                                                    -n, n - 1, dim));
    return dim < 0 ? dim + n : dim;
}

std::vector<bool> reductionMask(const std::vector<int64_t>& dims, int64_t ndim) {
    std::vector<bool> mask(static_cast<std::size_t>(ndim), dims.empty());
    for (int64_t d : dims) {
        int64_t w = wrapDim(d, ndim);
        if (ndim == 0) continue;
        if (mask[static_cast<std::size_t>(w)])
            throw ScriptError("RuntimeError", fmt::format("dim {} appears multiple times in the list of dims", w));
        mask[static_cast<std::size_t>(w)] = true;
    }
    return mask;
}

Shape reducedShape(const Shape& sizes, const std::vector<bool>& mask, bool keepdim) {
    Shape out;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (!mask[i]) out.push_back(sizes[i]);
        else if (keepdim) out.push_back(1);
    }
    return out;
}

std::string shapeStr(const Shape& s) { return fmt::format("[{}]", fmt::join(s, ", ")); }

Shape broadcastShapes(const Shape& a, const Shape& b) {
    std::size_t n = std::max(a.size(), b.size());
    Shape out(n);
    for (std::size_t i = n; i-- > 0;) {
        // Aligned from the right and checked from there, as ATen's infer_size: its message
        // names the rightmost mismatch, by the output's dim.
        int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
        int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
        if (da != db && da != 1 && db != 1)
            throw ScriptError("RuntimeError",
                              fmt::format("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
                                          da, db, i));
        out[i] = da == 1 ? db : da;
    }
    return out;
}

Shape broadcastTensors(const std::vector<Tensor>& tensors) {
    Shape out;
    for (const Tensor& t : tensors)
        if (t.defined()) out = broadcastShapes(out, t.sizes());
    return out;
}

void throwComplexUnsupported(DType t) {
    throw ScriptError("RuntimeError", fmt::format("Fusescope computes this on real values only: not implemented for '{}'", dtypeScalarName(t)));
}

DType resultType(const std::vector<Tensor>& operands) {
    std::optional<DType> dimResult, zeroResult, wrappedResult;
    for (const Tensor& t : operands) {
        if (!t.defined()) continue;
        DType current = t.dtype();
        std::optional<DType>* slot = &dimResult;
        if (t.isWrappedNumber()) {
            if (isFloating(current)) current = defaultFloat();
            slot = &wrappedResult;
        } else if (t.dim() == 0) {
            slot = &zeroResult;
        }
        *slot = *slot ? promoteTypes(**slot, current) : current;
    }
    auto combine = [](std::optional<DType> higher, std::optional<DType> lower) -> std::optional<DType> {
        if (!higher) return lower;
        if (!lower) return higher;
        // Categories: bool < integral < floating < complex. A lower-priority complex operand
        // makes a floating one complex at its own precision (c10's combine_categories).
        if (isComplex(*higher)) return higher;
        if (isComplex(*lower)) return isFloating(*higher) ? complexOf(*higher) : *lower;
        if (isFloating(*higher)) return higher;
        if (*higher == DType::Bool || isFloating(*lower)) return promoteTypes(*higher, *lower);
        return higher;
    };
    return combine(dimResult, combine(zeroResult, wrappedResult)).value_or(defaultFloat());
}

MemoryFormat memoryFormatArgument(const IValue& value, MemoryFormat absent) {
    if (value.isNone()) return absent;
    auto format = static_cast<MemoryFormat>(value.toInt());
    if (format == MemoryFormat::ChannelsLast || format == MemoryFormat::ChannelsLast3d)
        throw ScriptError("NotImplementedError", "the channels_last memory formats are not supported by Fusescope yet");
    return format;
}

bool canCast(DType from, DType to) {
    if (isComplex(from) && !isComplex(to)) return false;
    if (isFloating(from) && !isFloating(to)) return false;
    if (from != DType::Bool && to == DType::Bool) return false;
    return true;
}

std::vector<std::size_t> tensorIteratorDimOrder(std::size_t nd,
                                                const std::function<int(std::size_t, std::size_t)>& shouldSwap) {
    std::vector<std::size_t> perm(nd);
    for (std::size_t i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
    for (std::size_t i = 1; i < nd; ++i) {
        std::size_t dim1 = i;
        for (std::ptrdiff_t dim0 = static_cast<std::ptrdiff_t>(i) - 1; dim0 >= 0; --dim0) {
            int c = shouldSwap(perm[static_cast<std::size_t>(dim0)], perm[dim1]);
            if (c > 0) {
                std::swap(perm[static_cast<std::size_t>(dim0)], perm[dim1]);
                dim1 = static_cast<std::size_t>(dim0);
            } else if (c < 0) {
                break;
            }
        }
    }
    return perm;
}

Shape pointwiseStrides(const Shape& outSizes, const std::vector<Tensor>& inputs) {
    const std::size_t nd = outSizes.size();
    std::vector<const Tensor*> ops;
    for (const Tensor& t : inputs)
        if (t.defined()) ops.push_back(&t);
    // Fast path (TensorIterator's fast setup): same-shaped inputs that are all contiguous
    // give a contiguous output; all dense with identical strides give those strides.
    bool sameShape = !ops.empty() && std::all_of(ops.begin(), ops.end(), [&](const Tensor* t) { return t->sizes() == outSizes; });
    if (sameShape) {
        if (std::all_of(ops.begin(), ops.end(), [](const Tensor* t) { return t->isContiguous(); }))
            return contiguousStrides(outSizes);
        const Shape& s0 = ops[0]->strides();
        bool same = std::all_of(ops.begin(), ops.end(), [&](const Tensor* t) { return t->strides() == s0; });
        if (same) {
            // non-overlapping and dense: sorted by stride, each stride equals the product of
            // the sizes below it.
            std::vector<std::size_t> order(nd);
            std::iota(order.begin(), order.end(), 0);
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return s0[a] < s0[b]; });
            int64_t expected = 1;
            bool dense = true;
            for (std::size_t d : order) {
                if (outSizes[d] == 1) continue;
                if (s0[d] != expected) dense = false;
                expected *= outSizes[d];
            }
            if (dense) return s0;
        }
    }
    if (nd == 0) return {};
    // Broadcast strides (0 where an operand is broadcast or has size 1).
    std::vector<Shape> strides;
    for (const Tensor* t : ops) {
        Shape s(nd, 0);
        std::size_t off = nd - t->sizes().size();
        for (std::size_t i = 0; i < t->sizes().size(); ++i)
            s[off + i] = t->sizes()[i] == 1 && outSizes[off + i] != 1 ? 0 : t->strides()[i];
        strides.push_back(std::move(s));
    }
    // perm[0] is the fastest-moving dim; insertion sort with ambiguous comparisons, exactly
    // as TensorIterator::reorder_dimensions.
    auto shouldSwap = [&](std::size_t d0, std::size_t d1) {
        for (const Shape& s : strides) {
            int64_t s0 = s[d0], s1 = s[d1];
            if (s0 == 0 || s1 == 0) continue;
            if (s0 < s1) return -1;
            if (s0 > s1) return 1;
            if (outSizes[d0] > outSizes[d1]) return 1;
        }
        return 0;
    };
    std::vector<std::size_t> perm = tensorIteratorDimOrder(nd, shouldSwap);
    Shape out(nd);
    int64_t next = 1;
    for (std::size_t i = 0; i < nd; ++i) {
        out[perm[i]] = next;
        next *= outSizes[perm[i]];
    }
    // An untouched permutation means plain row-major (which also fixes size-0/1 strides).
    bool identity = true;
    for (std::size_t i = 0; i < nd; ++i) identity = identity && perm[i] == nd - 1 - i;
    return identity ? contiguousStrides(outSizes) : out;
}

ResultMeta contiguousMeta(const Shape& sizes, DType dtype) { return {sizes, contiguousStrides(sizes), dtype}; }

ResultMeta pointwiseMeta(const std::vector<Tensor>& inputs, DType outType) {
    Shape sizes = broadcastTensors(inputs);
    return {sizes, pointwiseStrides(sizes, inputs), outType};
}

void checkInplace(const Tensor& self, const std::vector<Tensor>& inputs, DType resultDtype) {
    Shape sizes = broadcastTensors(inputs);
    if (sizes != self.sizes())
        throw ScriptError("RuntimeError", fmt::format("output with shape {} doesn't match the broadcast shape {}",
                                                      shapeStr(self.sizes()), shapeStr(sizes)));
    if (!canCast(resultDtype, self.dtype()))
        throw ScriptError("RuntimeError", fmt::format("result type {} can't be cast to the desired output type {}",
                                                      dtypeScalarName(resultDtype), dtypeScalarName(self.dtype())));
}

namespace {

Tensor allocateStorage(const ResultMeta& meta, bool zeroed) {
    for (int64_t s : meta.sizes)
        if (s < 0)
            throw ScriptError("RuntimeError", fmt::format("Trying to create tensor with negative dimension {}: {}", s, shapeStr(meta.sizes)));
    int64_t extent = 0;
    if (shapeNumel(meta.sizes) > 0) {
        extent = 1;
        for (std::size_t i = 0; i < meta.sizes.size(); ++i) extent += (meta.sizes[i] - 1) * meta.strides[i];
    }
    auto impl = std::make_shared<TensorImpl>();
    std::size_t nbytes = 0;
    if (__builtin_mul_overflow(static_cast<std::size_t>(extent), dtypeSize(meta.dtype), &nbytes))
        throw ScriptError("RuntimeError", fmt::format("Storage size calculation overflowed with sizes={}", shapeStr(meta.sizes)));
    impl->storage = std::make_shared<Storage>(nbytes, Device::cpu(), zeroed);
    impl->sizes = meta.sizes;
    impl->strides = meta.strides;
    impl->dtype = meta.dtype;
    return Tensor(std::move(impl));
}

// One element of `dtype` as PyTorch's fill_uninitialized_memory fills: NaN, or the largest value.
std::vector<char> unwrittenElement(DType dtype) {
    std::vector<char> bytes(dtypeSize(dtype));
    if (isComplex(dtype)) {
        const std::vector<char> part = unwrittenElement(complexValueType(dtype));
        std::copy(part.begin(), part.end(), bytes.begin());
        std::copy(part.begin(), part.end(), bytes.begin() + static_cast<std::ptrdiff_t>(part.size()));
    } else if (isFloating(dtype)) {
        storeDouble(bytes.data(), dtype, std::numeric_limits<double>::quiet_NaN());
    } else {
        storeInt(bytes.data(), dtype, dtype == DType::Int32 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max());
    }
    return bytes;
}

}  // namespace

namespace {
std::atomic<bool>& fillUnwritten() {
    static std::atomic<bool> fill = [] {
        const char* value = std::getenv("FUSESCOPE_FILL_UNINITIALIZED_MEMORY");
        return value && *value && std::string_view(value) != "0";
    }();
    return fill;
}
}  // namespace

bool fillsUnwrittenOutputs() { return fillUnwritten().load(std::memory_order_relaxed); }
void setFillUnwrittenOutputs(bool fill) { fillUnwritten() = fill; }

Tensor allocate(const ResultMeta& meta) { return allocateStorage(meta, true); }

Tensor allocateUnwritten(const ResultMeta& meta) {
    Tensor out = allocateStorage(meta, false);
    if (!fillsUnwrittenOutputs()) return out;
    const std::vector<char> element = unwrittenElement(meta.dtype);
    char* bytes = static_cast<char*>(out.storage()->data());
    for (std::size_t at = 0; at + element.size() <= out.storage()->nbytes(); at += element.size())
        std::memcpy(bytes + at, element.data(), element.size());
    return out;
}

Tensor metaTensor(const ResultMeta& meta) { return Tensor::emptyMeta(meta.sizes, meta.strides, meta.dtype); }

Tensor metaLike(const Tensor& t) {
    Tensor m = Tensor::emptyMeta(t.sizes(), t.strides(), t.dtype());
    m.setRequiresGrad(t.requiresGrad());
    return m;
}

IterOperand iterOperand(const Tensor& t, const Shape& iterSizes) {
    IterOperand op;
    op.data = bytePtr(t);
    const std::size_t nd = iterSizes.size();
    op.byteStrides.assign(nd, 0);
    const int64_t item = static_cast<int64_t>(dtypeSize(t.dtype()));
    std::size_t off = nd - t.sizes().size();
    for (std::size_t i = 0; i < t.sizes().size(); ++i)
        op.byteStrides[off + i] = t.sizes()[i] == 1 ? 0 : t.strides()[i] * item;
    return op;
}

DType operandRounding(const Tensor& operand, DType compute) {
    if (!isFloating(compute) || compute == DType::Float64 || operand.dtype() == compute) return DType::Float64;
    if (compute != DType::Float32 && operand.impl()->wrappedNumber) return DType::Float32;
    return compute;
}

namespace {

// The bytes an operand's elements start at over `sizes`, [low, high); +16 past the last
// start covers any element's width.
std::pair<const char*, const char*> byteSpan(const IterOperand& op, const Shape& sizes) {
    const char *low = op.data, *high = op.data;
    for (std::size_t d = 0; d < sizes.size(); ++d) {
        const int64_t reach = sizes[d] > 1 ? op.byteStrides[d] * (sizes[d] - 1) : 0;
        (reach < 0 ? low : high) += reach;
    }
    return {low, high + 16};
}

// Whether no two elements of the operand share a place: its dims, sorted by stride, each
// step past the extent of the ones before (an expanded output, stride 0, does not).
bool eachElementItsOwnPlace(const IterOperand& op, const Shape& sizes) {
    std::vector<std::pair<int64_t, int64_t>> dims;  // (|byte stride|, size)
    for (std::size_t d = 0; d < sizes.size(); ++d)
        if (sizes[d] > 1) dims.emplace_back(std::abs(op.byteStrides[d]), sizes[d]);
    std::sort(dims.begin(), dims.end());
    int64_t extent = 1;
    for (const auto& [stride, size] : dims) {
        if (stride < extent) return false;
        extent = stride * size;
    }
    return true;
}

}  // namespace

bool elementsIndependent(const Shape& sizes, const std::vector<IterOperand>& ops) {
    if (!eachElementItsOwnPlace(ops[0], sizes)) return false;
    const auto [outLow, outHigh] = byteSpan(ops[0], sizes);
    for (std::size_t i = 1; i < ops.size(); ++i) {
        if (ops[i].data == ops[0].data && ops[i].byteStrides == ops[0].byteStrides) continue;  // the output itself
        const auto [low, high] = byteSpan(ops[i], sizes);
        if (low < outHigh && outLow < high) return false;
    }
    return true;
}

FlatRead flatRead(const IterOperand& op, const Shape& sizes, DType dtype, FlatRepeat* repeat) {
    if (std::all_of(op.byteStrides.begin(), op.byteStrides.end(), [](int64_t s) { return s == 0; }) && shapeNumel(sizes) > 1)
        return FlatRead::OneValue;
    if (dtype != DType::Float32) return FlatRead::No;
    std::size_t d = sizes.size();
    int64_t run = 1;  // the trailing dims it is broadcast over: each element read `run` times in a row
    while (d > 0 && (sizes[d - 1] == 1 || op.byteStrides[d - 1] == 0)) run *= sizes[--d];
    int64_t expected = static_cast<int64_t>(sizeof(float));  // then dims laid out as the output's
    while (d > 0 && (sizes[d - 1] == 1 || op.byteStrides[d - 1] == expected)) expected *= sizes[--d];
    for (std::size_t lead = 0; lead < d; ++lead)  // and the leading ones broadcast
        if (sizes[lead] != 1 && op.byteStrides[lead] != 0) return FlatRead::No;
    if (run == 1 && d == 0) return FlatRead::Floats;
    *repeat = {.period = expected / static_cast<int64_t>(sizeof(float)), .run = run};
    return FlatRead::Repeated;
}

namespace {

// Whether the tensor's elements fill its span of memory one each (contiguous once its
// dims are sorted by stride): PyTorch's is_non_overlapping_and_dense.
bool nonOverlappingAndDense(const Tensor& t) {
    std::vector<std::size_t> dims(static_cast<std::size_t>(t.dim()));
    for (std::size_t d = 0; d < dims.size(); ++d) dims[d] = d;
    std::sort(dims.begin(), dims.end(), [&](std::size_t a, std::size_t b) { return t.strides()[a] < t.strides()[b]; });
    int64_t expected = 1;
    for (std::size_t d : dims) {
        if (t.sizes()[d] == 1) continue;
        if (t.strides()[d] != expected) return false;
        expected *= t.sizes()[d];
    }
    return true;
}

}  // namespace

void requireNoPartialOverlap(const Tensor& written, const Tensor& read) {
    if (written.impl() == read.impl() || !written.storage() || written.storage() != read.storage() || written.numel() == 0 ||
        read.numel() == 0 || !nonOverlappingAndDense(written) || !nonOverlappingAndDense(read))
        return;
    const auto item = static_cast<int64_t>(dtypeSize(written.dtype()));
    const int64_t wBegin = written.storageOffset() * item, wEnd = wBegin + written.numel() * item;
    const int64_t rBegin = read.storageOffset() * static_cast<int64_t>(dtypeSize(read.dtype())),
                  rEnd = rBegin + read.numel() * static_cast<int64_t>(dtypeSize(read.dtype()));
    const bool same = wBegin == rBegin && wEnd == rEnd && written.strides() == read.strides();
    if (!same && wBegin < rEnd && rBegin < wEnd)
        throw ScriptError("RuntimeError", "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
                                          "memory location. Please clone() the tensor before performing the operation.");
}

bool applyFloatFunctionTo(const Tensor& out, const Tensor& in, FloatFunction f) {
    if (out.dtype() != DType::Float32 || in.dtype() != DType::Float32 || out.sizes() != in.sizes()) return false;
    const Shape& sizes = out.sizes();
    const int64_t n = shapeNumel(sizes);
    if (n == 0) return true;
    FlatRepeat unused;
    auto rowMajor = [&](const Tensor& t) { return flatRead(iterOperand(t, sizes), sizes, DType::Float32, &unused) == FlatRead::Floats; };
    const Tensor source = rowMajor(in) ? in : contiguousCopy(in);
    const Tensor target = rowMajor(out) ? out : allocate(contiguousMeta(sizes, DType::Float32));
    if (!rowMajor(source) || !rowMajor(target)) return false;
    const float* from = static_cast<const float*>(source.dataPtr());
    float* to = static_cast<float*>(target.dataPtr());
    auto chunk = [&](int64_t begin, int64_t end) {
        for (int64_t at = begin; at < end; at += kCancelPollElements) {
            throwIfCancelled();
            applyFloatFunction(f, from + at, to + at, std::min(end, at + kCancelPollElements) - at);
        }
    };
    // Split where each element is apart from the others (in place, x.exp_(), each is its own
    // input); an out= that overlaps its input otherwise runs as one span.
    if (n > kParallelGrain && (from == to || elementsIndependent(sizes, {iterOperand(target, sizes), iterOperand(source, sizes)})))
        parallelFor(n, kParallelGrain, chunk);
    else
        chunk(0, n);
    if (target.impl() != out.impl()) copyInto(out, target);
    return true;
}

void copyInto(const Tensor& dst, const Tensor& src) {
    // The same bytes in the same order: one move (a compiled step copying its updates back).
    if (dst.dtype() == src.dtype() && dst.sizes() == src.sizes() && dst.isContiguous() && src.isContiguous()) {
        std::memmove(dst.dataPtr(), src.dataPtr(), static_cast<std::size_t>(dst.numel()) * dtypeSize(dst.dtype()));
        return;
    }
    if (copyBytesInto(dst, src)) return;
    if (isComplex(dst.dtype()) || isComplex(src.dtype())) {
        // Part by part; a real source has imaginary part 0, a real destination keeps the real
        // part (PyTorch's copy_ too discards the imaginary part).
        if (!isComplex(dst.dtype())) return copyInto(dst, complexPart(src, 0));
        if (!isComplex(src.dtype())) {
            copyInto(complexPart(dst, 0), src);
            return copyInto(complexPart(dst, 1), Tensor::scalar(0.0, complexValueType(dst.dtype())).asStrided(dst.sizes(), Shape(dst.sizes().size(), 0), 0));
        }
        return copyInto(complexAsPairs(dst), complexAsPairs(src));
    }
    DType compute = isFloating(src.dtype()) ? DType::Float64 : DType::Int64;
    pointwiseApply(dst, {src}, compute, [](const double* v) { return v[0]; }, [](const int64_t* v) { return v[0]; });
}

Tensor castCopy(const Tensor& src, DType dtype) {
    Tensor out = allocateUnwritten({src.sizes(), pointwiseStrides(src.sizes(), {src}), dtype});
    copyInto(out, src);
    return out;
}

Tensor contiguousCopy(const Tensor& src) {
    Tensor out = allocateUnwritten(contiguousMeta(src.sizes(), src.dtype()));
    copyInto(out, src);
    return out;
}

std::vector<double> toDoubles(const Tensor& t) {
    std::vector<double> out;
    out.reserve(static_cast<std::size_t>(t.numel()));
    DType dt = t.dtype();
    forEachElement(t.sizes(), {iterOperand(t, t.sizes())}, [&](char* const* p) { out.push_back(loadDouble(p[0], dt)); });
    return out;
}

namespace {
// Row-major element offsets over the selected dims.
std::vector<int64_t> offsetsOver(const Tensor& t, const std::vector<bool>& mask, bool selected) {
    std::vector<int64_t> offsets{0};
    for (std::size_t d = 0; d < t.sizes().size(); ++d) {
        if (mask[d] != selected) continue;
        std::vector<int64_t> next;
        next.reserve(offsets.size() * static_cast<std::size_t>(std::max<int64_t>(t.sizes()[d], 0)));
        for (int64_t base : offsets)
            for (int64_t i = 0; i < t.sizes()[d]; ++i) next.push_back(base + i * t.strides()[d]);
        offsets = std::move(next);
    }
    return offsets;
}
}  // namespace

ReductionPlan planReduction(const Tensor& t, const std::vector<bool>& mask) {
    return {offsetsOver(t, mask, false), offsetsOver(t, mask, true)};
}

OpDef makeOp(std::string name, std::string schema, OpFlags flags, MetaFn meta, ComputeFn compute) {
    OpDef d;
    d.name = std::move(name);
    d.schema = std::move(schema);
    d.isFunction = flags.function;
    d.isMethod = flags.method;
    d.isFunctional = flags.functional;
    d.infer = [meta](const BoundArgs& a) { return IValue(metaTensor(meta(a))); };
    d.kernel = [meta, compute, writesEveryElement = flags.writesEveryElement](const BoundArgs& a) {
        Tensor out = writesEveryElement ? allocateUnwritten(meta(a)) : allocate(meta(a));
        compute(a, out);
        return IValue(out);
    };
    return d;
}

Tensor wrapScalar(const IValue& v) {
    Tensor t = v.isBool()  ? Tensor::scalar(v.toBool() ? 1.0 : 0.0, DType::Bool)
               : v.isInt() ? Tensor::empty({}, DType::Int64)
                           : Tensor::scalar(v.toDouble(), DType::Float64);
    if (v.isInt()) *t.data<int64_t>() = v.toInt();  // exact beyond 2^53
    t.impl()->wrappedNumber = true;
    return t;
}

void checkRequiresGrad(DType dtype, bool requiresGrad) {
    if (requiresGrad && !isFloating(dtype))
        throw ScriptError("RuntimeError", "Only Tensors of floating point and complex dtype can require gradients");
}

}  // namespace fusescope
