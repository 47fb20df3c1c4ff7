#pragma once
// Shared machinery for the eager kernels: dtype-dispatched element access, broadcasting,
// type promotion, output layout, strided iteration and reduction planning. Every op's
// infer and kernel compute output metadata through the same helpers.

#include <algorithm>
#include <cstring>
#include <functional>
#include <span>
#include <type_traits>
#include <vector>

#include "core/cancellation.h"
#include "core/parallel.h"
#include "core/half.h"
#include "core/tensor.h"
#include "ops/float_math.h"
#include "ops/op_registry.h"

namespace fusescope {

// ---- dims and shapes ------------------------------------------------------------------
int64_t wrapDim(int64_t dim, int64_t ndim);
// Reduction dims as a mask; empty dims = all. Repeated dims raise like PyTorch.
std::vector<bool> reductionMask(const std::vector<int64_t>& dims, int64_t ndim);
Shape reducedShape(const Shape& sizes, const std::vector<bool>& mask, bool keepdim);
Shape broadcastShapes(const Shape& a, const Shape& b);
Shape broadcastTensors(const std::vector<Tensor>& tensors);
std::string shapeStr(const Shape& s);  // "[2, 3]"

// ---- types ----------------------------------------------------------------------------
// torch.result_type over operands: dimensioned tensors outrank 0-dim tensors, which outrank
// wrapped numbers, except that a lower-priority operand of a higher category (bool < int <
// float) still lifts the category.
DType resultType(const std::vector<Tensor>& operands);
bool canCast(DType from, DType to);

// ---- memory formats (torch.contiguous_format, ...; c10::MemoryFormat's numbers) ----------
enum class MemoryFormat { Contiguous = 0, Preserve = 1, ChannelsLast = 2, ChannelsLast3d = 3 };
// An op's memory_format argument (None: `absent`); channels_last layouts raise
// NotImplementedError, as Fusescope's tensors do not take them yet.
MemoryFormat memoryFormatArgument(const IValue& value, MemoryFormat absent);
// Float-only functions (exp, sqrt, div, mean...) turn bool/int into the default float.
inline DType toFloatType(DType t) { return isFloating(t) ? t : defaultFloat(); }

// ---- output metadata (ResultMeta; graph/graph.h's TensorMeta adds symbolic sizes) ----
struct ResultMeta {
    Shape sizes;
    Shape strides;
    DType dtype = DType::Float32;
};
// Strides TensorIterator gives a pointwise output: follow the inputs' memory order.
Shape pointwiseStrides(const Shape& outSizes, const std::vector<Tensor>& inputs);
// TensorIterator's dim order: starting from reversed dims (perm[0] the last), an insertion
// sort that stops at the first definite "no" of shouldSwap(d0, d1) (>0 swap, <0 keep,
// 0 undecided). perm[0] is the fastest-moving dim.
std::vector<std::size_t> tensorIteratorDimOrder(std::size_t nd,
                                                const std::function<int(std::size_t, std::size_t)>& shouldSwap);
ResultMeta contiguousMeta(const Shape& sizes, DType dtype);
// A pointwise result over `inputs`: their broadcast shape, TensorIterator's strides.
ResultMeta pointwiseMeta(const std::vector<Tensor>& inputs, DType outType);
// In-place ops write into self: the broadcast shape must be self's and the result type
// must be castable to self's dtype (ScriptError otherwise).
void checkInplace(const Tensor& self, const std::vector<Tensor>& inputs, DType resultDtype);
Tensor allocate(const ResultMeta& meta);  // CPU, zero-filled, strides honoured
// For a kernel that writes every element: not zero-filled, unless FUSESCOPE_FILL_UNINITIALIZED_MEMORY
// is set (not "0"): then filled with NaN (floating and complex) or the largest integer, as
// PyTorch's torch.utils.deterministic.fill_uninitialized_memory fills, so that an element a
// kernel leaves unwritten shows (the OpInfo and differential suites run with it).
Tensor allocateUnwritten(const ResultMeta& meta);
bool fillsUnwrittenOutputs();
void setFillUnwrittenOutputs(bool fill);  // for tests: the variable's effect from now on
Tensor metaTensor(const ResultMeta& meta);
Tensor metaLike(const Tensor& t);

// ---- element access ------------------------------------------------------------------
// Kernels that read values as real numbers refuse complex ones (ops that take complex
// tensors say so in their OpDef: opdefs/complex.cpp), so no imaginary part is ever dropped.
[[noreturn]] void throwComplexUnsupported(DType t);
inline double loadDouble(const char* p, DType t) {
    switch (t) {
        case DType::Bool: return *reinterpret_cast<const unsigned char*>(p) ? 1.0 : 0.0;
        case DType::Int32: { int32_t v; std::memcpy(&v, p, 4); return v; }
        case DType::Int64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
        case DType::Float16: { uint16_t v; std::memcpy(&v, p, 2); return halfToFloat(v); }
        case DType::BFloat16: { uint16_t v; std::memcpy(&v, p, 2); return bfloat16ToFloat(v); }
        case DType::Float32: { float v; std::memcpy(&v, p, 4); return v; }
        case DType::Float64: { double v; std::memcpy(&v, p, 8); return v; }
        case DType::Complex64: case DType::Complex128: throwComplexUnsupported(t);
    }
    return 0;
}
inline int64_t loadInt(const char* p, DType t) {
    switch (t) {
        case DType::Bool: return *reinterpret_cast<const unsigned char*>(p) ? 1 : 0;
        case DType::Int32: { int32_t v; std::memcpy(&v, p, 4); return v; }
        case DType::Int64: { int64_t v; std::memcpy(&v, p, 8); return v; }
        default: return static_cast<int64_t>(loadDouble(p, t));
    }
}
inline void storeDouble(char* p, DType t, double v) {
    switch (t) {
        case DType::Bool: *reinterpret_cast<unsigned char*>(p) = v != 0.0; break;
        case DType::Int32: { int32_t x = static_cast<int32_t>(v); std::memcpy(p, &x, 4); break; }
        case DType::Int64: { int64_t x = static_cast<int64_t>(v); std::memcpy(p, &x, 8); break; }
        case DType::Float16: { uint16_t x = floatToHalf(static_cast<float>(v)); std::memcpy(p, &x, 2); break; }
        case DType::BFloat16: { uint16_t x = floatToBfloat16(static_cast<float>(v)); std::memcpy(p, &x, 2); break; }
        case DType::Float32: { float x = static_cast<float>(v); std::memcpy(p, &x, 4); break; }
        case DType::Float64: std::memcpy(p, &v, 8); break;
        case DType::Complex64: case DType::Complex128: throwComplexUnsupported(t);
    }
}
inline void storeInt(char* p, DType t, int64_t v) {
    switch (t) {
        case DType::Bool: *reinterpret_cast<unsigned char*>(p) = v != 0; break;
        case DType::Int32: { int32_t x = static_cast<int32_t>(v); std::memcpy(p, &x, 4); break; }
        case DType::Int64: std::memcpy(p, &v, 8); break;
        default: storeDouble(p, t, static_cast<double>(v)); break;
    }
}
inline char* bytePtr(const Tensor& t) { return static_cast<char*>(t.dataPtr()); }

// ---- strided iteration ---------------------------------------------------------------
constexpr int kMaxOperands = 4;
struct IterOperand {
    char* data = nullptr;
    Shape byteStrides;  // broadcast to the iteration shape (0 on broadcast dims)
};
IterOperand iterOperand(const Tensor& t, const Shape& iterSizes);

// Calls f(char* const* ptrs) once per element of `sizes` numbered [begin, end) in row-major
// order, with ptrs[i] pointing at operand i's element.
template <class F>
void forEachElementIn(const Shape& sizes, const std::vector<IterOperand>& ops, int64_t begin, int64_t end, F&& f) {
    if (begin >= end) return;
    const std::size_t n = ops.size();
    char* ptrs[kMaxOperands] = {};
    const std::size_t nd = sizes.size();
    if (nd == 0) {
        for (std::size_t i = 0; i < n; ++i) ptrs[i] = ops[i].data;
        f(static_cast<char* const*>(ptrs));
        return;
    }
    const int64_t inner = sizes[nd - 1];
    int64_t innerStride[kMaxOperands] = {};
    for (std::size_t i = 0; i < n; ++i) innerStride[i] = ops[i].byteStrides[nd - 1];
    std::vector<int64_t> idx(nd - 1, 0);  // the row of `begin`
    int64_t row = begin / inner, column = begin % inner, remaining = end - begin;
    for (std::size_t d = nd - 1; d-- > 0;) idx[d] = row % sizes[d], row /= sizes[d];
    int64_t sincePoll = 0;
    for (;;) {
        for (std::size_t i = 0; i < n; ++i) {
            char* p = ops[i].data + column * innerStride[i];
            for (std::size_t d = 0; d + 1 < nd; ++d) p += idx[d] * ops[i].byteStrides[d];
            ptrs[i] = p;
        }
        const int64_t count = std::min(inner - column, remaining);
        for (int64_t j = 0; j < count; ++j) {
            if (++sincePoll == kCancelPollElements) sincePoll = 0, throwIfCancelled();
            f(static_cast<char* const*>(ptrs));
            for (std::size_t i = 0; i < n; ++i) ptrs[i] += innerStride[i];
        }
        if ((remaining -= count) == 0) return;
        column = 0;
        for (std::size_t d = nd - 1; d-- > 0;) {
            if (++idx[d] < sizes[d]) break;
            idx[d] = 0;
        }
    }
}
template <class F>
void forEachElement(const Shape& sizes, const std::vector<IterOperand>& ops, F&& f) {
    forEachElementIn(sizes, ops, 0, shapeNumel(sizes), f);
}

// Whether every element of ops[0] (the output) can be computed apart from the others: no
// input's bytes overlap the output's, except an input that is the output itself, element
// for element (x.add_(y)). x[1:].add_(x[:-1]) reads what the loop wrote: in order, alone.
bool elementsIndependent(const Shape& sizes, const std::vector<IterOperand>& ops);

// forEachElement split across threads where the elements are independent: the same values
// with any number of threads.
template <class F>
void forEachElementInParallel(const Shape& sizes, const std::vector<IterOperand>& ops, F&& f) {
    const int64_t total = shapeNumel(sizes);
    auto chunk = [&](int64_t begin, int64_t end) { forEachElementIn(sizes, ops, begin, end, f); };
    if (total > kParallelGrain && elementsIndependent(sizes, ops)) parallelFor(total, kParallelGrain, chunk);  // a small op: no check
    else chunk(0, total);
}

// ---- operands in the compute dtype ----------------------------------------------------
// PyTorch's kernels convert every operand to the dtype they compute in before any
// arithmetic (TensorIterator's common dtype; a Python number with a float16 or bfloat16
// tensor meets it as a float, the kernels' opmath): a Python float times a float32 tensor is
// rounded to float first. The dtype each operand's values pass through on the way in,
// Float64 where that changes nothing.
DType operandRounding(const Tensor& operand, DType compute);
inline double roundedTo(DType t, double v) {  // v through t's precision
    switch (t) {
        case DType::Float32: return static_cast<float>(v);
        case DType::Float16: return halfToFloat(floatToHalf(static_cast<float>(v)));
        case DType::BFloat16: return bfloat16ToFloat(floatToBfloat16(static_cast<float>(v)));
        default: return v;
    }
}

// How an operand of a float32 fast path is read: one element per output element in the
// output's order (float32), one value for all (any dtype: a Python number), or float32 laid
// out as some of the output's dims and broadcast over the others before and after them (a
// bias added to each row, a channel's scale over its pixels): output element k reads element
// (k / run) % period.
enum class FlatRead { No, Floats, OneValue, Repeated };
struct FlatRepeat {
    int64_t period = 0;  // 0: not Repeated
    int64_t run = 1;
};
FlatRead flatRead(const IterOperand& op, const Shape& sizes, DType dtype, FlatRepeat* repeat);

// The fd of + - * / (double in, rounded once to the output): flatFloat32Apply's float32 spans
// of it run the vectorised applyFloatArithmetic, whose bits are the same.
template <FloatArithmetic Op>
struct ArithmeticFd {
    static constexpr FloatArithmetic arithmetic = Op;
    double operator()(const double* v) const {
        if constexpr (Op == FloatArithmetic::Add) return v[0] + v[1];
        else if constexpr (Op == FloatArithmetic::Sub) return v[0] - v[1];
        else if constexpr (Op == FloatArithmetic::Mul) return v[0] * v[1];
        else return v[0] / v[1];
    }
};

// The common eager case (optimizer updates, gradients, biases, channel scales): a float32
// output, every input read in the output's order, one value, or repeated (FlatRead). The same arithmetic as the general loop (each value as
// double, the result rounded to float) without its per-element dtype dispatch and strides.
template <class FD>
bool flatFloat32Apply(const Shape& sizes, const std::vector<IterOperand>& ops, const DType* types, const DType* rounding, std::size_t n,
                      FD& fd) {
    FlatRepeat repeat[kMaxOperands] = {};  // a Repeated operand's (period 0 for the others)
    if (flatRead(ops[0], sizes, DType::Float32, &repeat[0]) != FlatRead::Floats) return false;
    const float* floats[kMaxOperands] = {};
    double values[kMaxOperands] = {};
    for (std::size_t i = 0; i < n; ++i) {
        FlatRead read = flatRead(ops[i + 1], sizes, types[i], &repeat[i]);
        if (read == FlatRead::No) return false;
        // One value or a repeated stretch inside the output (x.mul_(x[0])) changes as the loop
        // writes, and a span reads it once: the general loop.
        const char* at = ops[i + 1].data;
        if (read != FlatRead::Floats && at >= ops[0].data && at < ops[0].data + shapeNumel(sizes) * static_cast<int64_t>(sizeof(float)))
            return false;
        if (read == FlatRead::Floats || read == FlatRead::Repeated) floats[i] = reinterpret_cast<const float*>(at);
        else values[i] = roundedTo(rounding[i], loadDouble(at, types[i]));
    }
    float* out = reinterpret_cast<float*>(ops[0].data);
    // + - * / of floats (a constant that is not a float, a float64 scalar's, computes in double).
    bool vectorArithmetic = false;
    if constexpr (requires { FD::arithmetic; })
        vectorArithmetic = n == 2 && std::all_of(values, values + n, [](double v) { return v != v || double(float(v)) == v; });
    // to[j] for j < count: operand i read from stream[i][j], or constant[i] where stream[i] is
    // null. The common shapes as loops of a fixed form, which the compiler vectorizes.
    auto span = [&](const float* const* stream, const double* constant, float* to, int64_t count) {
        if constexpr (requires { FD::arithmetic; }) {
            if (vectorArithmetic)
                return applyFloatArithmetic(FD::arithmetic, stream[0], float(constant[0]), stream[1], float(constant[1]), to, count);
        }
        if (n == 1 && stream[0]) {
            for (int64_t j = 0; j < count; ++j) {
                const double v[1] = {static_cast<double>(stream[0][j])};
                to[j] = static_cast<float>(fd(v));
            }
        } else if (n == 2 && stream[0] && stream[1]) {
            for (int64_t j = 0; j < count; ++j) {
                const double v[2] = {static_cast<double>(stream[0][j]), static_cast<double>(stream[1][j])};
                to[j] = static_cast<float>(fd(v));
            }
        } else if (n == 2 && stream[0]) {
            for (int64_t j = 0; j < count; ++j) {
                const double v[2] = {static_cast<double>(stream[0][j]), constant[1]};
                to[j] = static_cast<float>(fd(v));
            }
        } else if (n == 2 && stream[1]) {
            for (int64_t j = 0; j < count; ++j) {
                const double v[2] = {constant[0], static_cast<double>(stream[1][j])};
                to[j] = static_cast<float>(fd(v));
            }
        } else {
            for (int64_t j = 0; j < count; ++j) {
                double v[kMaxOperands];
                for (std::size_t i = 0; i < n; ++i) v[i] = stream[i] ? static_cast<double>(stream[i][j]) : constant[i];
                to[j] = static_cast<float>(fd(static_cast<const double*>(v)));
            }
        }
    };
    auto chunk = [&](int64_t from, int64_t to) {
        for (int64_t begin = from; begin < to; begin += kCancelPollElements) {
            throwIfCancelled();
            const int64_t end = std::min(to, begin + kCancelPollElements);
            // A Repeated operand reads element (k / run) % period (FlatRead): with a run of 1 a
            // stretch of its elements in order (a bias along each row), else one element for
            // `run` outputs in a row (a channel's scale over its pixels), read as a constant.
            // Each span ends where one of them moves on.
            int64_t at[kMaxOperands] = {}, left[kMaxOperands] = {};  // a Repeated operand's element, and its reads left on it
            for (std::size_t i = 0; i < n; ++i)
                if (repeat[i].period) at[i] = begin / repeat[i].run % repeat[i].period, left[i] = repeat[i].run - begin % repeat[i].run;
            for (int64_t k = begin; k < end;) {
                const float* stream[kMaxOperands] = {};
                double constant[kMaxOperands] = {};
                int64_t stop = end;
                for (std::size_t i = 0; i < n; ++i) {
                    if (!repeat[i].period) {
                        stream[i] = floats[i] ? floats[i] + k : nullptr, constant[i] = values[i];
                    } else if (repeat[i].run == 1) {
                        stream[i] = floats[i] + at[i], stop = std::min(stop, k + repeat[i].period - at[i]);
                    } else {
                        constant[i] = floats[i][at[i]], stop = std::min(stop, k + left[i]);
                    }
                }
                span(stream, constant, out + k, stop - k);
                for (std::size_t i = 0; i < n; ++i) {
                    if (!repeat[i].period) continue;
                    if (repeat[i].run == 1) {
                        at[i] += stop - k;
                    } else if ((left[i] -= stop - k) == 0) {
                        left[i] = repeat[i].run;
                        ++at[i];
                    }
                    if (at[i] == repeat[i].period) at[i] = 0;
                }
                k = stop;
            }
        }
    };
    if (shapeNumel(sizes) > kParallelGrain && elementsIndependent(sizes, ops)) parallelFor(shapeNumel(sizes), kParallelGrain, chunk);
    else chunk(0, shapeNumel(sizes));
    return true;
}

// Writes fn(inputs...) into out (inputs broadcast to out's shape). Computes in double when
// `compute` is floating, otherwise in int64 with fi (pass nullptr for float-only ops).
template <class FD, class FI>
void pointwiseApply(const Tensor& out, const std::vector<Tensor>& inputs, DType compute, FD fd, FI fi) {
    std::vector<IterOperand> ops;
    ops.push_back(iterOperand(out, out.sizes()));
    constexpr bool floatOnly = std::is_same_v<FI, std::nullptr_t>;
    DType types[kMaxOperands], rounding[kMaxOperands];
    bool rounds = false;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        ops.push_back(iterOperand(inputs[i], out.sizes()));
        types[i] = inputs[i].dtype();
        rounding[i] = operandRounding(inputs[i], compute);
        rounds = rounds || rounding[i] != DType::Float64;
    }
    const std::size_t n = inputs.size();
    const DType outType = out.dtype();
    if ((floatOnly || isFloating(compute)) && outType == DType::Float32) {
        if (flatFloat32Apply(out.sizes(), ops, types, rounding, n, fd)) return;
        if (std::all_of(types, types + n, [](DType t) { return t == DType::Float32; })) {  // strided or broadcast float32
            forEachElementInParallel(out.sizes(), ops, [&](char* const* p) {
                double v[kMaxOperands] = {};
                for (std::size_t i = 0; i < n; ++i) {
                    float x;
                    std::memcpy(&x, p[i + 1], sizeof x);
                    v[i] = x;  // a float's value is the same in any dtype it rounds through
                }
                const float result = static_cast<float>(fd(static_cast<const double*>(v)));
                std::memcpy(p[0], &result, sizeof result);
            });
            return;
        }
    }
    if ((floatOnly || isFloating(compute)) && rounds) {
        forEachElementInParallel(out.sizes(), ops, [&](char* const* p) {
            double v[kMaxOperands] = {};
            for (std::size_t i = 0; i < n; ++i) v[i] = roundedTo(rounding[i], loadDouble(p[i + 1], types[i]));
            storeDouble(p[0], outType, fd(static_cast<const double*>(v)));
        });
    } else if (floatOnly || isFloating(compute)) {
        forEachElementInParallel(out.sizes(), ops, [&](char* const* p) {
            double v[kMaxOperands] = {};
            for (std::size_t i = 0; i < n; ++i) v[i] = loadDouble(p[i + 1], types[i]);
            storeDouble(p[0], outType, fd(static_cast<const double*>(v)));
        });
    } else if constexpr (!floatOnly) {
        forEachElementInParallel(out.sizes(), ops, [&](char* const* p) {
            int64_t v[kMaxOperands] = {};
            for (std::size_t i = 0; i < n; ++i) v[i] = loadInt(p[i + 1], types[i]);
            storeInt(p[0], outType, fi(static_cast<const int64_t*>(v)));
        });
    }
}

// out = f(in) through the vectorised float math (ops/float_math.h) where both are float32, so
// that every float32 value meets the same function whatever its layout: spans split across
// threads, through contiguous copies where a tensor is not laid out in row-major order. False
// for other dtypes (the caller's loop runs).
bool applyFloatFunctionTo(const Tensor& out, const Tensor& in, FloatFunction f);

// PyTorch's assert_no_partial_overlap for an eager call: two dense tensors (each
// contiguous in some order of its dims) whose bytes overlap without being the same
// elements raise its error; a layout it cannot judge (strided, expanded) passes.
void requireNoPartialOverlap(const Tensor& written, const Tensor& read);

// Copies src into dst (src broadcast to dst's shape, converting dtype).
void copyInto(const Tensor& dst, const Tensor& src);
// A new tensor of `dtype` with src's values, laid out like a pointwise output.
Tensor castCopy(const Tensor& src, DType dtype);
Tensor contiguousCopy(const Tensor& src);
std::vector<double> toDoubles(const Tensor& t);  // row-major values

// ---- reductions ----------------------------------------------------------------------
// Element offsets (relative to element 0 of the tensor) split into the kept dims (outer,
// row-major over the kept dims) and the reduced dims (inner, row-major over the reduced dims).
struct ReductionPlan {
    std::vector<int64_t> outer;
    std::vector<int64_t> inner;
};
ReductionPlan planReduction(const Tensor& t, const std::vector<bool>& mask);

// For each output row o (kept-dim index), calls f(o, values) with the reduced values loaded
// as T (double or int64_t).
template <class T, class F>
void reduceRows(const Tensor& in, const std::vector<bool>& mask, F&& f) {
    ReductionPlan plan = planReduction(in, mask);
    const char* base = bytePtr(in);
    const int64_t item = static_cast<int64_t>(dtypeSize(in.dtype()));
    std::vector<T> values(plan.inner.size());
    int64_t sincePoll = 0;
    for (std::size_t o = 0; o < plan.outer.size(); ++o) {
        if ((sincePoll += static_cast<int64_t>(plan.inner.size())) >= kCancelPollElements) sincePoll = 0, throwIfCancelled();
        for (std::size_t r = 0; r < plan.inner.size(); ++r) {
            const char* p = base + (plan.outer[o] + plan.inner[r]) * item;
            if constexpr (std::is_same_v<T, double>) values[r] = loadDouble(p, in.dtype());
            else values[r] = loadInt(p, in.dtype());
        }
        f(static_cast<int64_t>(o), std::span<const T>(values));
    }
}

// ---- op definitions ------------------------------------------------------------------
struct OpFlags {
    bool function = true;
    bool method = true;
    bool functional = false;
    bool writesEveryElement = false;  // the kernel's output starts unwritten (allocateUnwritten)
};
using MetaFn = std::function<ResultMeta(const BoundArgs&)>;
using ComputeFn = std::function<void(const BoundArgs&, const Tensor& out)>;
// An op with one tensor output: infer builds a meta tensor from meta(); kernel allocates
// from the same meta() and fills it with compute().
OpDef makeOp(std::string name, std::string schema, OpFlags flags, MetaFn meta, ComputeFn compute);
// A Python number as a 0-dim "wrapped number" tensor (bool, int64 or float64).
Tensor wrapScalar(const IValue& number);
// Applies requires_grad / device keyword handling shared by creation ops.
void checkRequiresGrad(DType dtype, bool requiresGrad);

}  // namespace fusescope
