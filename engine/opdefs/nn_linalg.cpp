// nn ops (softmax, log_softmax, layer_norm) and linear algebra (matmul, mm, bmm, linear),
// plus joining (cat, stack). Eagerly, matrix products use one batched i-k-j loop (no BLAS);
// compiled, mm and bmm are extern kernels, the nn ops and linear decompose into core ops,
// and cat and stack lower piecewise.

#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "autograd/derivative_ops.h"
#include "core/cancellation.h"
#include "core/error.h"
#include "core/parallel.h"
#include "lower/piecewise.h"
#include "opdefs/op_families.h"
#include "ops/blas_gemm.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

// c10's C++ type names, as PyTorch's dtype-mismatch messages print them.
std::string cppTypeName(DType t) {
    switch (t) {
        case DType::Bool: return "bool";
        case DType::Int32: return "int";
        case DType::Int64: return "long int";
        case DType::Float16: return "c10::Half";
        case DType::BFloat16: return "c10::BFloat16";
        case DType::Float32: return "float";
        case DType::Float64: return "double";
        case DType::Complex64: return "c10::complex<float>";
        case DType::Complex128: return "c10::complex<double>";
    }
    return "";
}

// ---- softmax / log_softmax / layer_norm ----------------------------------------------
// Applies fn(in values, out values) to each row of the reduced dims; the output is
// contiguous with the input's shape. Rows are split across threads: fn must be reentrant.
template <class F>
void rowwise(const Tensor& in, const Tensor& out, const std::vector<bool>& mask, F fn) {
    ReductionPlan pin = planReduction(in, mask), pout = planReduction(out, mask);
    const char* ib = bytePtr(in);
    char* ob = bytePtr(out);
    int64_t isz = static_cast<int64_t>(dtypeSize(in.dtype())), osz = static_cast<int64_t>(dtypeSize(out.dtype()));
    const std::size_t length = pin.inner.size();
    const int64_t rows = static_cast<int64_t>(pin.outer.size());
    parallelFor(rows, kParallelGrain / std::max<int64_t>(1, static_cast<int64_t>(length)), [&](int64_t begin, int64_t end) {
        std::vector<double> x(length), y(length);
        for (auto o = static_cast<std::size_t>(begin); o < static_cast<std::size_t>(end); ++o) {
            throwIfCancelled();
            for (std::size_t i = 0; i < length; ++i) x[i] = loadDouble(ib + (pin.outer[o] + pin.inner[i]) * isz, in.dtype());
            fn(x, y);
            for (std::size_t i = 0; i < length; ++i) storeDouble(ob + (pout.outer[o] + pout.inner[i]) * osz, out.dtype(), y[i]);
        }
    });
}

// rowwise for a contiguous float32 input and output whose rows are the last `length`
// elements' runs: fn(x, y) on each row's floats (ops/float_math.h's row kernels), rows split
// across threads. False for other layouts and dtypes (rowwise runs).
template <class F>
bool floatRows(const Tensor& in, const Tensor& out, int64_t length, F fn) {
    if (in.dtype() != DType::Float32 || out.dtype() != DType::Float32 || !in.isContiguous() || !out.isContiguous() || length == 0)
        return false;
    const float* x = static_cast<const float*>(in.dataPtr());
    float* y = static_cast<float*>(out.dataPtr());
    parallelFor(in.numel() / length, std::max<int64_t>(1, kParallelGrain / length), [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
            throwIfCancelled();
            fn(x + row * length, y + row * length);
        }
    });
    return true;
}

OpDef& addSoftmax(OpRegistry& r, const std::string& name, bool logarithm) {
    auto meta = [name](const BoundArgs& a) {
        const Tensor& self = a.tensor("self");
        DType out = a["dtype"].isNone() ? self.dtype() : a["dtype"].toDType();
        if (!isFloating(out))
            throw ScriptError("RuntimeError", fmt::format("\"{}_lastdim_kernel_impl\" not implemented for '{}'", name, dtypeScalarName(out)));
        wrapDim(a.integer("dim"), self.dim());
        return contiguousMeta(self.sizes(), out);
    };
    return r.add(makeOp(name, name + "(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
                        {.functional = true, .writesEveryElement = true}, meta,
                 [logarithm](const BoundArgs& a, const Tensor& out) {
                     const Tensor& self = a.tensor("self");
                     std::vector<bool> mask = reductionMask({a.integer("dim")}, self.dim());
                     const int64_t length = self.dim() == 0 ? 1 : self.size(-1);
                     // Along the last dim, float32 in the row kernels whatever the layout: one order of summing.
                     if (self.dim() > 0 && mask.back() && self.dtype() == DType::Float32 && out.dtype() == DType::Float32 &&
                         floatRows(self.isContiguous() ? self : contiguousCopy(self), out, length, [logarithm, length](const float* x, float* y) {
                             thread_local std::vector<double> exps;
                             exps.resize(static_cast<std::size_t>(length));
                             const float max = maxOfRow(x, length);
                             const double sum = expsBelowShift(x, max, exps.data(), length);
                             if (logarithm) logSoftmaxRow(x, max, std::log(sum), y, length);
                             else divideRow(exps.data(), sum, y, length);
                         }))
                         return;
                     rowwise(self, out, mask, [logarithm](const std::vector<double>& x, std::vector<double>& y) {
                         double m = -INFINITY;
                         for (double v : x) m = std::max(m, v);
                         double sum = 0;
                         for (std::size_t i = 0; i < x.size(); ++i) sum += y[i] = std::exp(x[i] - m);
                         const double logSum = std::log(sum);
                         for (std::size_t i = 0; i < x.size(); ++i) y[i] = logarithm ? x[i] - m - logSum : y[i] / sum;
                     });
                 }));
}

ResultMeta layerNormMeta(const BoundArgs& a) {
    const Tensor& input = a.tensor("input");
    std::vector<int64_t> shape = a.ints("normalized_shape");
    Shape normalized(shape.begin(), shape.end());
    bool ok = normalized.size() <= input.sizes().size() && !normalized.empty() &&
              std::equal(normalized.begin(), normalized.end(), input.sizes().end() - static_cast<std::ptrdiff_t>(normalized.size()));
    if (!ok) {
        throw ScriptError("RuntimeError", fmt::format("Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}",
                                                      shapeStr(normalized), fmt::join(normalized, ", "), shapeStr(input.sizes())));
    }
    for (const char* p : {"weight", "bias"}) {
        const IValue& v = a[p];
        if (!v.isNone() && v.toTensor().sizes() != normalized)
            throw ScriptError("RuntimeError", fmt::format("Expected {} to be of same shape as normalized_shape, but got {} of shape {} and "
                                                          "normalized_shape = {}",
                                                          p, p, shapeStr(v.toTensor().sizes()), shapeStr(normalized)));
    }
    if (!isFloating(input.dtype()))
        throw ScriptError("RuntimeError", fmt::format("\"LayerNormKernelImpl\" not implemented for '{}'", dtypeScalarName(input.dtype())));
    return contiguousMeta(input.sizes(), input.dtype());
}

// ---- matrix products -------------------------------------------------------------------
// One operand of a batched product seen as [batch..., rows, cols] with explicit strides;
// batch offsets enumerate the broadcast batch shape (stride 0 where broadcast).
struct MatView {
    const char* data;
    DType dtype;
    std::vector<int64_t> batchOffsets;
    int64_t rows, cols, rowStride, colStride;
};

std::vector<int64_t> batchOffsets(const Shape& batch, const Tensor& t, std::size_t matrixDims) {
    std::size_t tb = t.sizes().size() - matrixDims;  // operand's own batch dims
    std::vector<int64_t> offsets{0};
    for (std::size_t d = 0; d < batch.size(); ++d) {
        std::ptrdiff_t od = static_cast<std::ptrdiff_t>(d) - static_cast<std::ptrdiff_t>(batch.size() - tb);
        int64_t stride = od >= 0 && t.sizes()[static_cast<std::size_t>(od)] != 1 ? t.strides()[static_cast<std::size_t>(od)] : 0;
        std::vector<int64_t> next;
        for (int64_t base : offsets)
            for (int64_t i = 0; i < batch[d]; ++i) next.push_back(base + i * stride);
        offsets = std::move(next);
    }
    return offsets;
}

// out (contiguous, batch x n x m) = a @ b for every batch entry.
template <class T>
void gemm(const MatView& a, const MatView& b, const Tensor& out) {
    const int64_t n = a.rows, k = a.cols, m = b.cols;
    const int64_t asz = static_cast<int64_t>(dtypeSize(a.dtype)), bsz = static_cast<int64_t>(dtypeSize(b.dtype));
    const int64_t osz = static_cast<int64_t>(dtypeSize(out.dtype()));
    // Packed copies of the operands, as large as their (maybe expanded) shapes: made as
    // tensors, so their sizes pass the same checks (numel overflow, the memory limit).
    const DType packed = std::is_same_v<T, double> ? DType::Float64 : DType::Int64;
    Tensor packedA = Tensor::empty({n, k}, packed), packedB = Tensor::empty({k, m}, packed), packedC = Tensor::empty({n, m}, packed);
    T* A = packedA.data<T>();
    T* B = packedB.data<T>();
    T* C = packedC.data<T>();
    const int64_t cSize = n * m;
    auto load = [](const char* p, DType t) -> T {
        if constexpr (std::is_same_v<T, double>) return loadDouble(p, t);
        else return loadInt(p, t);
    };
    char* ob = bytePtr(out);
    for (std::size_t bi = 0; bi < a.batchOffsets.size(); ++bi) {
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < k; ++j)
                A[static_cast<std::size_t>(i * k + j)] = load(a.data + (a.batchOffsets[bi] + i * a.rowStride + j * a.colStride) * asz, a.dtype);
        for (int64_t i = 0; i < k; ++i)
            for (int64_t j = 0; j < m; ++j)
                B[static_cast<std::size_t>(i * m + j)] = load(b.data + (b.batchOffsets[bi] + i * b.rowStride + j * b.colStride) * bsz, b.dtype);
        std::fill(C, C + cSize, T{});
        for (int64_t i = 0; i < n; ++i) {
            throwIfCancelled();  // a row is k * m multiply-adds
            for (int64_t p = 0; p < k; ++p) {
                T aip = A[static_cast<std::size_t>(i * k + p)];
                const T* brow = &B[static_cast<std::size_t>(p * m)];
                T* crow = &C[static_cast<std::size_t>(i * m)];
                for (int64_t j = 0; j < m; ++j) crow[j] += aip * brow[j];
            }
        }
        char* base = ob + static_cast<int64_t>(bi) * n * m * osz;
        for (int64_t i = 0; i < cSize; ++i) {
            if constexpr (std::is_same_v<T, double>) storeDouble(base + i * osz, out.dtype(), C[i]);
            else storeInt(base + i * osz, out.dtype(), C[i]);
        }
    }
}

// How BLAS reads a batch entry of `v` in place: whether it is transposed (columns
// contiguous) and its leading dimension; none when neither rows nor columns are contiguous.
// A single row's (or column's) other stride is never used, so it does not matter.
std::optional<std::pair<bool, int64_t>> blasLayout(const MatView& v) {
    int64_t rowStride = v.rows == 1 ? std::max<int64_t>(v.cols, 1) : v.rowStride;
    int64_t colStride = v.cols == 1 ? std::max<int64_t>(v.rows, 1) : v.colStride;
    if (colStride == 1 && rowStride >= std::max<int64_t>(v.cols, 1)) return std::pair{false, rowStride};
    if (rowStride == 1 && colStride >= std::max<int64_t>(v.rows, 1)) return std::pair{true, colStride};
    return std::nullopt;
}

// float32 and float64 products of BLAS-readable operands go to BLAS, in the dtype itself
// as PyTorch's do; the rest (integers, other strides, no BLAS) to the loop above.
bool blasGemmInto(const MatView& a, const MatView& b, const Tensor& out) {
    DType dtype = out.dtype();
    if (!haveBlas() || (dtype != DType::Float32 && dtype != DType::Float64) || a.dtype != dtype || b.dtype != dtype) return false;
    auto la = blasLayout(a), lb = blasLayout(b);
    const int64_t n = a.rows, k = a.cols, m = b.cols;
    if (!la || !lb || n == 0 || k == 0 || m == 0) return false;
    const int64_t size = static_cast<int64_t>(dtypeSize(dtype));
    for (std::size_t bi = 0; bi < a.batchOffsets.size(); ++bi) {
        throwIfCancelled();
        blasGemm(dtype == DType::Float64, la->first, lb->first, n, m, k, 1.0, a.data + a.batchOffsets[bi] * size, la->second,
                 b.data + b.batchOffsets[bi] * size, lb->second, 0.0, bytePtr(out) + static_cast<int64_t>(bi) * n * m * size, m);
    }
    return true;
}

void runGemm(const MatView& a, const MatView& b, const Tensor& out) {
    if (blasGemmInto(a, b, out)) return;
    if (isFloating(out.dtype())) gemm<double>(a, b, out);
    else gemm<int64_t>(a, b, out);
}

void checkSameDtype(const Tensor& a, const Tensor& b) {
    if (a.dtype() != b.dtype())
        throw ScriptError("RuntimeError", fmt::format("expected m1 and m2 to have the same dtype, but got: {} != {}", cppTypeName(a.dtype()),
                                                      cppTypeName(b.dtype())));
}

// PyTorch names the kernel that refused: mm, or addmm for a linear with a bias.
[[noreturn]] void cannotMultiply(int64_t r1, int64_t c1, int64_t r2, int64_t c2, const char* kernel = "mm") {
    throw ScriptError("RuntimeError",
                      fmt::format("{}: mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", kernel, r1, c1, r2, c2));
}

// matmul's output shape and batch shape, following torch.matmul's cases.
struct MatmulShape {
    Shape out;
    Shape batch;
};

MatmulShape matmulShape(const Tensor& a, const Tensor& b) {
    int64_t da = a.dim(), db = b.dim();
    if (da == 0 || db == 0)
        throw ScriptError("RuntimeError",
                          fmt::format("both arguments to matmul need to be at least 1D, but they are {}D and {}D", da, db));
    checkSameDtype(a, b);
    const Shape& sa = a.sizes();
    const Shape& sb = b.sizes();
    if (da == 1 && db == 1) {
        if (sa[0] != sb[0])
            throw ScriptError("RuntimeError", fmt::format("inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of "
                                                          "elements, but got {} and {} elements respectively",
                                                          sa[0], sb[0], sa[0], sb[0]));
        return {{}, {}};
    }
    if (db == 1) {
        if (sa.back() != sb[0]) {  // a batch of matrices folds into one matrix (mv's message)
            int64_t rows = shapeNumel(sa) / std::max<int64_t>(sa.back(), 1);
            throw ScriptError("RuntimeError", fmt::format("size mismatch, got input ({}), mat ({}x{}), vec ({})", rows, rows, sa.back(), sb[0]));
        }
        Shape out(sa.begin(), sa.end() - 1);
        return {out, da >= 2 ? Shape(sa.begin(), sa.end() - 2) : Shape{}};
    }
    int64_t k = sa.back();
    int64_t kb = sb[sb.size() - 2];
    if (k != kb) cannotMultiply(db == 2 ? shapeNumel(sa) / std::max<int64_t>(k, 1) : da == 1 ? 1 : sa[sa.size() - 2], k, kb, sb.back());
    Shape batchA = da >= 2 ? Shape(sa.begin(), sa.end() - 2) : Shape{};
    Shape batchB(sb.begin(), sb.end() - 2);
    Shape batch = broadcastShapes(batchA, batchB);
    Shape out = batch;
    if (da >= 2) out.push_back(sa[sa.size() - 2]);
    out.push_back(sb.back());
    return {out, batch};
}

MatView matView(const Tensor& t, const Shape& batch, bool isLeft) {
    MatView v{bytePtr(t), t.dtype(), {}, 0, 0, 0, 0};
    if (t.dim() == 1) {
        // A vector is a 1xk row on the left, a kx1 column on the right.
        v.batchOffsets = batchOffsets(batch, t, 1);
        if (isLeft) v = {v.data, v.dtype, v.batchOffsets, 1, t.sizes()[0], 0, t.strides()[0]};
        else v = {v.data, v.dtype, v.batchOffsets, t.sizes()[0], 1, t.strides()[0], 0};
        return v;
    }
    v.batchOffsets = batchOffsets(batch, t, 2);
    std::size_t n = t.sizes().size();
    v.rows = t.sizes()[n - 2];
    v.cols = t.sizes()[n - 1];
    v.rowStride = t.strides()[n - 2];
    v.colStride = t.strides()[n - 1];
    return v;
}

void matmulInto(const Tensor& a, const Tensor& b, const Tensor& out) {
    MatmulShape s = matmulShape(a, b);
    runGemm(matView(a, s.batch, true), matView(b, s.batch, false), out);
}

ResultMeta linearMeta(const BoundArgs& a) {
    const Tensor& input = a.tensor("input");
    const Tensor& weight = a.tensor("weight");
    if (input.dim() == 0) throw ScriptError("RuntimeError", "both arguments to linear need to be at least 1D, but they are 0D and 2D");
    if (weight.dim() != 2) throw ScriptError("RuntimeError", fmt::format("linear(): weight must be 2-D, but got {}-D", weight.dim()));
    checkSameDtype(input, weight);
    int64_t k = input.sizes().back();
    if (k != weight.sizes()[1])
        cannotMultiply(shapeNumel(input.sizes()) / std::max<int64_t>(k, 1), k, weight.sizes()[1], weight.sizes()[0],
                       a["bias"].isNone() ? "mm" : "addmm");
    Shape out(input.sizes().begin(), input.sizes().end() - 1);
    out.push_back(weight.sizes()[0]);
    const IValue& bias = a["bias"];
    if (!bias.isNone()) broadcastShapes(out, bias.toTensor().sizes());
    return contiguousMeta(out, input.dtype());
}

// ---- cat / stack -----------------------------------------------------------------------
std::vector<Tensor> tensorList(const BoundArgs& a) {
    std::vector<Tensor> out;
    for (const IValue& v : a["tensors"].toSequence()->items) out.push_back(v.toTensor());
    return out;
}

ResultMeta catMeta(const std::vector<Tensor>& all, int64_t dimArg, const char* op) {
    if (all.empty()) throw ScriptError("RuntimeError", fmt::format("torch.{}(): expected a non-empty list of Tensors", op));
    // Legacy behaviour: 1-D empty tensors are skipped whatever their shape.
    std::vector<const Tensor*> ts;
    for (const Tensor& t : all)
        if (!(t.dim() == 1 && t.numel() == 0)) ts.push_back(&t);
    DType dtype = all[0].dtype();
    for (const Tensor& t : all) dtype = promoteTypes(dtype, t.dtype());
    if (ts.empty()) return contiguousMeta({0}, dtype);
    const Tensor& first = *ts[0];
    if (first.dim() == 0) throw ScriptError("RuntimeError", fmt::format("zero-dimensional tensor (at position 0) cannot be concatenated"));
    std::size_t dim = static_cast<std::size_t>(wrapDim(dimArg, first.dim()));
    Shape out = first.sizes();
    out[dim] = 0;
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const Tensor& t = *ts[i];
        if (t.dim() != first.dim())
            throw ScriptError("RuntimeError", fmt::format("Tensors must have same number of dimensions: got {} and {}", first.dim(), t.dim()));
        for (std::size_t d = 0; d < out.size(); ++d)
            if (d != dim && t.sizes()[d] != first.sizes()[d])
                throw ScriptError("RuntimeError", fmt::format("Sizes of tensors must match except in dimension {}. Expected size {} but got size {} "
                                                              "for tensor number {} in the list.",
                                                              dim, first.sizes()[d], t.sizes()[d], i));
        out[dim] += t.sizes()[dim];
    }
    return contiguousMeta(out, dtype);
}

void catInto(const std::vector<Tensor>& all, int64_t dimArg, const Tensor& out) {
    if (out.numel() == 0) return;
    std::size_t dim = static_cast<std::size_t>(wrapDim(dimArg, out.dim()));
    int64_t offset = 0;
    for (const Tensor& t : all) {
        if (t.dim() == 1 && t.numel() == 0) continue;
        // Copy into the matching slab of out, a strided view of its storage.
        Tensor slab = out.asStrided(t.sizes(), out.strides(), out.storageOffset() + offset * out.strides()[dim]);
        copyInto(slab, t);
        offset += t.sizes()[dim];
    }
}

std::vector<Tensor> stackInputs(const std::vector<Tensor>& ts, int64_t dimArg) {
    if (ts.empty()) throw ScriptError("RuntimeError", "stack expects a non-empty TensorList");
    for (std::size_t i = 1; i < ts.size(); ++i)
        if (ts[i].sizes() != ts[0].sizes())
            throw ScriptError("RuntimeError", fmt::format("stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {}",
                                                          shapeStr(ts[0].sizes()), shapeStr(ts[i].sizes()), i));
    std::size_t dim = static_cast<std::size_t>(wrapDim(dimArg, ts[0].dim() + 1));
    std::vector<Tensor> out;
    for (const Tensor& t : ts) {
        // Unsqueeze as metadata only (works for meta tensors too).
        Shape sizes = t.sizes(), strides = t.strides();
        int64_t stride = dim < sizes.size() ? sizes[dim] * strides[dim] : 1;
        sizes.insert(sizes.begin() + static_cast<std::ptrdiff_t>(dim), 1);
        strides.insert(strides.begin() + static_cast<std::ptrdiff_t>(dim), stride);
        out.push_back(t.isMeta() ? Tensor::emptyMeta(sizes, strides, t.dtype()) : t.asStrided(sizes, strides, t.storageOffset()));
    }
    return out;
}

// ---- lowerings -----------------------------------------------------------------------------

std::vector<LValue> lowerMm(LoweringContext& c, const LoweringArgs& a) {
    LValue x = c.blasOperand(a.tensor("self")), y = c.blasOperand(a.tensor("mat2"));
    return {c.extern_(ExternKernelKind::Mm, {x, y}, c.contiguousLayout(c.outputSizes(), c.meta().dtype))};
}

std::vector<LValue> lowerBmm(LoweringContext& c, const LoweringArgs& a) {
    LValue x = c.blasOperand(a.tensor("self")), y = c.blasOperand(a.tensor("mat2"));
    return {c.extern_(ExternKernelKind::Bmm, {x, y}, c.contiguousLayout(c.outputSizes(), c.meta().dtype))};
}

// matmul left whole by its decomposition: (B, M, K) @ (K, N) as one mm, 2-D and 3-D
// operands as mm and bmm.
std::vector<LValue> lowerMatmul(LoweringContext& c, const LoweringArgs& a) {
    LValue x = a.tensor("self"), y = a.tensor("other");
    size_t rank = x.sizes.size();
    if (rank == 3 && y.sizes.size() == 2) {
        // (B, M, K) @ (K, N): one mm over B*M rows of a contiguous x, viewed back as (B, M, N).
        // Realized as itself, contiguous: the same memory as its rows (a layout of another
        // rank would misplace the elements once both leading dims are symbolic).
        FixedLayout rows = c.contiguousLayout({x.sizes[0] * x.sizes[1], x.sizes[2]}, x.dtype);
        FixedLayout whole = c.contiguousLayout(x.sizes, x.dtype);
        if (!x.storageBacked() || !x.view.isContiguous()) x = c.realize(x, &whole, "the rows of a matrix product, read contiguously");
        x.sizes = rows.size;
        x.view.size = rows.size;
        x.view.stride = rows.stride;
        LValue out = c.extern_(ExternKernelKind::Mm, {x, c.blasOperand(y)},
                               c.contiguousLayout({rows.size[0], y.sizes[1]}, c.meta().dtype));
        out.sizes = c.outputSizes();
        out.view.size = out.sizes;
        out.view.stride = contiguousStrides(out.sizes);
        return {out};
    }
    if (rank != y.sizes.size() || (rank != 2 && rank != 3))
        c.unsupported("matmul of these ranks (decompose it into mm/bmm first)");
    ExternKernelKind kernel = rank == 2 ? ExternKernelKind::Mm : ExternKernelKind::Bmm;
    return {c.extern_(kernel, {c.blasOperand(x), c.blasOperand(y)},
                      c.contiguousLayout(c.outputSizes(), c.meta().dtype))};
}

std::vector<LValue> lowerCat(LoweringContext& c, const LoweringArgs& a) {
    std::vector<LValue> inputs = a.tensors("tensors");
    size_t rank = c.outputSizes().size();
    int64_t dim = normalizeDim(a.bound().integer("dim"), rank);
    std::vector<Piece> pieces;
    IndexExpr offset;
    for (const auto& v : inputs) {
        if (v.sizes.size() != rank) continue;  // PyTorch skips 1-D empty tensors
        IndexExpr begin = offset, end = offset + v.sizes[dim];
        pieces.push_back({v,
                          [dim, begin, end](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                              int i = b.indexExpr(index[dim], DType::Int64);
                              int lo = b.call(LoopOpKind::Ge, {i, indexConstant(b, begin)}, DType::Bool);
                              int hi = b.call(LoopOpKind::Lt, {i, indexConstant(b, end)}, DType::Bool);
                              return b.call(LoopOpKind::LogicalAnd, {lo, hi}, DType::Bool);
                          },
                          [dim, begin](const std::vector<IndexExpr>& index) {
                              std::vector<IndexExpr> at = index;
                              at[dim] = index[dim] - begin;
                              return at;
                          }});
        offset = end;
    }
    return {piecewise(c, std::move(pieces))};
}

std::vector<LValue> lowerStack(LoweringContext& c, const LoweringArgs& a) {
    std::vector<LValue> inputs = a.tensors("tensors");
    int64_t dim = normalizeDim(a.bound().integer("dim"), c.outputSizes().size());
    std::vector<Piece> pieces;
    for (size_t k = 0; k < inputs.size(); ++k) {
        int64_t position = static_cast<int64_t>(k);
        pieces.push_back({inputs[k],
                          [dim, position](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                              int i = b.indexExpr(index[dim], DType::Int64);
                              return b.call(LoopOpKind::Eq, {i, b.constant(static_cast<double>(position), DType::Int64)}, DType::Bool);
                          },
                          [dim](const std::vector<IndexExpr>& index) {
                              std::vector<IndexExpr> at = index;
                              at.erase(at.begin() + dim);
                              return at;
                          }});
    }
    return {piecewise(c, std::move(pieces))};
}

// ---- decompositions ------------------------------------------------------------------------

// x - max(x) along dim, its exp, and the sum of that (kept as a dim for broadcasting).
struct ShiftedExp {
    Argument shifted, exp, sum;
};
ShiftedExp shiftedExp(Rewrite& r) {
    Argument x = inComputeType(r, r.tensor("self"));
    std::vector<int64_t> dim = {r.bound.integer("dim")};
    Argument max = reduce(r, "amax", x, dim, true);
    Argument shifted = r.call("sub", {x, max});
    Argument exp = r.call("exp", {shifted});
    return {shifted, exp, reduce(r, "sum", exp, dim, true)};
}

std::optional<Argument> decomposeSoftmax(Rewrite& r) {
    ShiftedExp s = shiftedExp(r);
    Argument sum = s.sum;
    if (r.hooks.plants(TestHooks::PlantedBug::InductorDecomposition)) sum = r.call("add", {sum, constant(1)});
    // Times the sum's reciprocal, as eager PyTorch's kernel computes it: one division per
    // row rather than per element.
    return r.call("mul", {s.exp, r.call("reciprocal", {sum})});
}

std::optional<Argument> decomposeLogSoftmax(Rewrite& r) {
    ShiftedExp s = shiftedExp(r);
    Argument logSum = r.call("log", {s.sum});
    return r.call("sub", {s.shifted, logSum});
}

std::optional<Argument> decomposeLayerNorm(Rewrite& r) {
    Argument input = r.tensor("input");
    TensorMeta m = r.meta(input);
    size_t normalized = r.bound.ints("normalized_shape").size();
    std::vector<int64_t> dims;
    for (size_t d = m.sizes.size() - normalized; d < m.sizes.size(); ++d) dims.push_back(static_cast<int64_t>(d));
    std::optional<int64_t> count = staticCount(r, m, dims);
    if (!count) return std::nullopt;
    Centered c = centered(r, inComputeType(r, input), dims, *count, true);
    Argument var = r.call("div", {c.sumOfSquares, constant(*count)});
    Argument shifted = r.call("add", {var, constant(r.bound.number("eps"))});
    Argument rstd = r.call("rsqrt", {shifted});
    Argument y = r.call("mul", {c.centered, rstd});
    if (auto weight = r.maybeTensor("weight")) y = r.call("mul", {y, *weight});
    if (auto bias = r.maybeTensor("bias")) y = r.call("add", {y, *bias});
    return y;
}

// x [..., k] @ matrix [k, n] as one mm: x's leading dims fold into its rows, and the
// product is reshaped back to the composite's result [..., n]. nullopt, before anything is
// emitted, when a dynamic graph leaves the reshapes no way to be written.
std::optional<Argument> foldedMm(Rewrite& r, Argument x, const std::function<Argument()>& matrix) {
    TensorMeta m = r.meta(x);
    size_t rank = m.sizes.size();
    if (rank == 2) return r.call("mm", {x, matrix()});
    std::optional<std::vector<int64_t>> resultSizes = reshapeSizes(r, r.result());
    if (!r.isStatic(m, rank - 1) || !resultSizes) return std::nullopt;
    int64_t rows = 1;  // the leading dims, -1 when one of them is not static
    for (size_t d = 0; d + 1 < rank && rows != -1; ++d) rows = r.isStatic(m, d) ? rows * m.sizes[d] : -1;
    Argument folded = r.call("reshape", {x, constant(IValue::intList({rows, m.sizes.back()}))});
    Argument product = r.call("mm", {folded, matrix()});
    return r.call("reshape", {product, constant(IValue::intList(*resultSizes))});
}

std::optional<Argument> decomposeLinear(Rewrite& r) {
    std::optional<Argument> y = foldedMm(r, r.tensor("input"), [&] { return r.call("t", {r.tensor("weight")}); });
    // Two dynamic leading dims cannot be folded by a reshape of constants; a 3-D input's
    // matmul is lowered whole (one mm over its rows).
    if (!y && r.meta(r.tensor("input")).sizes.size() == 3) y = r.call("matmul", {r.tensor("input"), r.call("t", {r.tensor("weight")})});
    if (!y) return std::nullopt;
    if (r.hooks.plants(TestHooks::PlantedBug::AotDecomposition)) y = r.call("mul", {*y, constant(2)});
    if (auto bias = r.maybeTensor("bias")) return r.call("add", {*y, *bias});
    return y;
}

std::optional<Argument> decomposeMatmul(Rewrite& r) {
    Argument a = r.tensor("self"), b = r.tensor("other");
    TensorMeta am = r.meta(a), bm = r.meta(b);
    size_t ra = am.sizes.size(), rb = bm.sizes.size();
    if (ra <= 2 && rb <= 2) {
        // Vectors become a 1xk row (left) or a kx1 column (right) and are squeezed out after.
        std::vector<int64_t> squeezed;
        if (ra == 1) {
            a = r.call("unsqueeze", {a, constant(int64_t{0})});
            squeezed.push_back(0);
        }
        if (rb == 1) {
            b = r.call("unsqueeze", {b, constant(int64_t{1})});
            squeezed.push_back(1);
        }
        Argument y = r.call("mm", {a, b});
        return squeezed.empty() ? y : r.call("squeeze", {y, constant(IValue::intList(squeezed))});
    }
    if (ra > 2 && rb <= 2) {
        // A matrix (or a vector as a kx1 column) applies to the last dim of a batch.
        return foldedMm(r, a, [&] { return rb == 1 ? r.call("unsqueeze", {b, constant(int64_t{1})}) : b; });
    }
    if (ra == rb && ra > 3) {
        // (..., M, K) @ (..., K, N) with the same static batch dims (attention's [B, H, T, D]):
        // the batch folds into one dim for bmm and unfolds after, as torch.matmul does.
        int64_t batch = 1;
        for (size_t d = 0; d < ra; ++d) {
            if (!r.isStatic(am, d) || !r.isStatic(bm, d)) return std::nullopt;
            if (d + 2 < ra && am.sizes[d] != bm.sizes[d]) return std::nullopt;
            if (d + 2 < ra) batch *= am.sizes[d];
        }
        Argument a3 = r.call("reshape", {a, constant(IValue::intList({batch, am.sizes[ra - 2], am.sizes[ra - 1]}))});
        Argument b3 = r.call("reshape", {b, constant(IValue::intList({batch, bm.sizes[rb - 2], bm.sizes[rb - 1]}))});
        std::vector<int64_t> out(am.sizes.begin(), am.sizes.end() - 1);
        out.push_back(bm.sizes[rb - 1]);
        return r.call("reshape", {r.call("bmm", {a3, b3}), constant(IValue::intList(out))});
    }
    if (ra != 3 || rb != 3) return std::nullopt;
    std::optional<std::string> batchA = sizeExpression(r, am, 0), batchB = sizeExpression(r, bm, 0);
    if (!batchA || !batchB) return std::nullopt;
    if (*batchA != *batchB) {
        // A static batch of 1 broadcasts against the other operand's static batch.
        if (!r.isStatic(am, 0) || !r.isStatic(bm, 0)) return std::nullopt;
        auto expanded = [&](const Argument& t, int64_t batch) {
            return r.call("expand", {t, constant(IValue::intList({batch, -1, -1}))});
        };
        if (am.sizes[0] == 1) a = expanded(a, bm.sizes[0]);
        else b = expanded(b, am.sizes[0]);
    }
    return r.call("bmm", {a, b});
}

}  // namespace

namespace {

// d(A @ B) = G @ B^T for A, A^T @ G for B (over the last two dims; a batch dim that was
// broadcast summed back; a vector taken as a one-row or one-column matrix); linear is
// input @ W^T + b; layer_norm's as ATen's native_layer_norm_backward; cat and stack hand each
// input its part of the gradient.
void registerLinalgDerivatives(OpRegistry& r) {
    auto product = [](const char* left, const char* right) {
        return [left, right](const DerivativeArgs& d) {
            const Tensor &a = d.input(left), &b = d.input(right);
            Tensor am = a, bm = b, g = d.grad;
            if (a.dim() == 1) {
                am = grad::call("unsqueeze", {a, 0});
                g = grad::call("unsqueeze", {g, b.dim() == 1 ? 0 : -2});
            }
            if (b.dim() == 1) {
                bm = grad::call("unsqueeze", {b, 1});
                g = grad::call("unsqueeze", {g, -1});
            }
            auto back = [](const Tensor& gradient, const Tensor& operand) {
                return operand.dim() == 1 ? grad::fitTo(grad::reshape(grad::call("contiguous", {gradient}), {-1, operand.size(0)}), operand)
                                          : grad::fitTo(gradient, operand);
            };
            ArgumentGradients grads;
            if (d.wants(left)) grads.emplace_back(left, back(grad::call("matmul", {g, grad::transpose(bm, -1, -2)}), a));
            if (d.wants(right)) {
                Tensor gb = grad::call("matmul", {grad::transpose(am, -1, -2), g});
                grads.emplace_back(right, b.dim() == 1 ? back(grad::transpose(gb, -1, -2), b) : grad::fitTo(gb, b));
            }
            return grads;
        };
    };
    differentiateWith(r.definition("mm"), product("self", "mat2"));
    differentiateWith(r.definition("bmm"), product("self", "mat2"));
    differentiateWith(r.definition("matmul"), product("self", "other"));
    // softmax: y (g - sum(g y)); log_softmax: g - exp(y) sum(g), both along dim.
    differentiateWith(r.definition("softmax"), [](const DerivativeArgs& d) {
        const Tensor& y = d.out();
        Tensor gy = grad::mul(d.grad, y);
        Tensor total = grad::call("sum", {gy, IValue::intList({d.args.integer("dim")}), true});
        return ArgumentGradients{{"self", grad::fitTo(grad::sub(gy, grad::mul(y, total)), d.like("self"))}};
    });
    differentiateWith(r.definition("log_softmax"), [](const DerivativeArgs& d) {
        Tensor total = grad::call("sum", {d.grad, IValue::intList({d.args.integer("dim")}), true});
        Tensor spread = grad::mul(grad::call("exp", {d.out()}), total);
        return ArgumentGradients{{"self", grad::fitTo(grad::sub(d.grad, spread), d.like("self"))}};
    });
    differentiateWith(r.definition("layer_norm"), [](const DerivativeArgs& d) {
        const Tensor& x = d.input("input");
        std::vector<int64_t> dims;  // the normalized (last) dims
        for (size_t i = 0; i < d.args.ints("normalized_shape").size(); ++i) dims.push_back(x.dim() - 1 - static_cast<int64_t>(i));
        auto meanOver = [&dims](const Tensor& t) { return grad::call("mean", {t, IValue::intList(dims), true}); };
        Tensor centered = grad::sub(x, meanOver(x));
        Tensor rstd = grad::call("rsqrt", {grad::call("add", {meanOver(grad::mul(centered, centered)), d.args.number("eps")})});
        Tensor normalized = grad::mul(centered, rstd);
        Tensor gw = d.args["weight"].isNone() ? d.grad : grad::mul(d.grad, d.input("weight"));
        ArgumentGradients g;
        if (d.wants("input")) {  // rstd (gw - mean(gw) - x^ mean(gw x^))
            Tensor inner = grad::sub(grad::sub(gw, meanOver(gw)), grad::mul(normalized, meanOver(grad::mul(gw, normalized))));
            g.emplace_back("input", grad::fitTo(grad::mul(rstd, inner), x));
        }
        if (d.wants("weight")) g.emplace_back("weight", grad::fitTo(grad::mul(d.grad, normalized), d.like("weight")));
        if (d.wants("bias")) g.emplace_back("bias", grad::fitTo(d.grad, d.like("bias")));
        return g;
    });
    auto parts = [](const DerivativeArgs& d, bool stacked) {
        const IValueList& inputs = d.args["tensors"].toSequence()->items;
        const int64_t dim = d.args.integer("dim");
        ArgumentGradients g;
        int64_t start = 0;
        for (size_t i = 0; i < inputs.size(); ++i) {
            const Tensor& t = inputs[i].toTensor();
            if (stacked) {
                g.emplace_back("tensors", grad::call("select", {d.grad, dim, static_cast<int64_t>(i)}));
                continue;
            }
            int64_t length = t.dim() == 1 && t.numel() == 0 ? 0 : t.size(dim);  // cat skips empty 1-d tensors
            // an empty part's gradient is empty (of its own shape), as PyTorch's
            g.emplace_back("tensors", length == 0 ? grad::zeros(t.sizes(), d.grad) : grad::call("narrow", {d.grad, dim, start, length}));
            start += length;
        }
        return g;
    };
    differentiateWith(r.definition("cat"), [parts](const DerivativeArgs& d) { return parts(d, false); }, Saved::SizesOnly);
    differentiateWith(r.definition("stack"), [parts](const DerivativeArgs& d) { return parts(d, true); }, Saved::SizesOnly);
    differentiateWith(r.definition("linear"), [](const DerivativeArgs& d) {
        const Tensor &input = d.input("input"), &weight = d.input("weight");
        // Rows of every leading dim at once: [rows, in] and [rows, out].
        Tensor rows = grad::reshape(grad::call("contiguous", {d.grad}), {-1, d.grad.size(-1)});
        ArgumentGradients g;
        if (d.wants("input")) g.emplace_back("input", grad::reshape(grad::call("mm", {rows, weight}), input.sizes()));
        if (d.wants("weight")) {
            Tensor inputRows = grad::reshape(grad::call("contiguous", {input}), {-1, input.size(-1)});
            g.emplace_back("weight", grad::call("mm", {grad::call("t", {rows}), inputRows}));
        }
        if (d.wants("bias")) g.emplace_back("bias", grad::fitTo(rows, d.like("bias")));
        return g;
    });
}

}  // namespace

void registerNnLinalgOps(OpRegistry& r) {
    decomposeWith(addSoftmax(r, "softmax", false), decomposeSoftmax);
    decomposeWith(addSoftmax(r, "log_softmax", true), decomposeLogSoftmax);
    OpDef& layerNorm = r.add(makeOp("layer_norm",
                 "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
                 {.method = false, .functional = true, .writesEveryElement = true}, layerNormMeta, [](const BoundArgs& a, const Tensor& out) {
                     const Tensor& input = a.tensor("input");
                     std::size_t k = a.ints("normalized_shape").size();
                     std::vector<bool> mask(input.sizes().size(), false);
                     for (std::size_t i = mask.size() - k; i < mask.size(); ++i) mask[i] = true;
                     double eps = a.number("eps");
                     const Tensor* weight = a["weight"].isNone() ? nullptr : &a.tensor("weight");
                     const Tensor* bias = a["bias"].isNone() ? nullptr : &a.tensor("bias");
                     auto floats = [](const Tensor* t) { return !t || (t->dtype() == DType::Float32 && t->isContiguous()); };
                     const int64_t length = shapeNumel(Shape(input.sizes().end() - static_cast<std::ptrdiff_t>(k), input.sizes().end()));
                     // float32 in the row kernels, whatever the input's layout: one order of summing.
                     if (input.dtype() == DType::Float32 && floats(weight) && floats(bias) &&
                         floatRows(input.isContiguous() ? input : contiguousCopy(input), out, length, [&](const float* x, float* y) {
                             const double mean = sumOfRow(x, length) / static_cast<double>(length);
                             const double rstd = 1.0 / std::sqrt(squaredDeviationsOfRow(x, mean, length) / static_cast<double>(length) + eps);
                             normalizeRow(x, mean, rstd, weight ? static_cast<const float*>(weight->dataPtr()) : nullptr,
                                          bias ? static_cast<const float*>(bias->dataPtr()) : nullptr, y, length);
                         }))
                         return;
                     std::vector<double> w = weight ? toDoubles(*weight) : std::vector<double>{};
                     std::vector<double> b = bias ? toDoubles(*bias) : std::vector<double>{};
                     rowwise(input, out, mask, [&](const std::vector<double>& x, std::vector<double>& y) {
                         double mean = 0, var = 0;
                         for (double v : x) mean += v;
                         mean /= static_cast<double>(x.size());
                         for (double v : x) var += (v - mean) * (v - mean);
                         double rstd = 1.0 / std::sqrt(var / static_cast<double>(x.size()) + eps);
                         for (std::size_t i = 0; i < x.size(); ++i) {
                             double v = (x[i] - mean) * rstd;
                             if (!w.empty()) v *= w[i];
                             if (!b.empty()) v += b[i];
                             y[i] = v;
                         }
                     });
                 }));
    decomposeWith(layerNorm, decomposeLayerNorm);
    gradFnNamed(layerNorm, "NativeLayerNormBackward0");

    OpDef& matmul = r.add(makeOp("matmul", "matmul(Tensor self, Tensor other) -> Tensor", {.writesEveryElement = true},
                 [](const BoundArgs& a) {
                     const Tensor& x = a.tensor("self");
                     return contiguousMeta(matmulShape(x, a.tensor("other")).out, x.dtype());
                 },
                 [](const BoundArgs& a, const Tensor& out) { matmulInto(a.tensor("self"), a.tensor("other"), out); }));
    lowerWith(matmul, lowerMatmul);
    decomposeWith(matmul, decomposeMatmul, true);
    // PyTorch's matmul is dot, mv, mm or bmm on folded or unsqueezed operands.
    gradFnNamedBy(matmul, [](const BoundArgs& a) {
        const int64_t left = a.tensor("self").dim(), right = a.tensor("other").dim();
        if (left == 1) return right == 1 ? "DotBackward0" : right == 2 ? "SqueezeBackward4" : "UnsafeViewBackward0";
        if (left == 2) return right == 1 ? "MvBackward0" : right == 2 ? "MmBackward0" : "CloneBackward0";
        return "UnsafeViewBackward0";
    });
    lowerWith(r.add(makeOp("mm", "mm(Tensor self, Tensor mat2) -> Tensor", {.writesEveryElement = true},
                 [](const BoundArgs& a) {
                     const Tensor& x = a.tensor("self");
                     const Tensor& y = a.tensor("mat2");
                     if (x.dim() != 2) throw ScriptError("RuntimeError", "self must be a matrix");
                     if (y.dim() != 2) throw ScriptError("RuntimeError", "mat2 must be a matrix");
                     if (x.sizes()[1] != y.sizes()[0]) cannotMultiply(x.sizes()[0], x.sizes()[1], y.sizes()[0], y.sizes()[1]);
                     checkSameDtype(x, y);
                     return contiguousMeta({x.sizes()[0], y.sizes()[1]}, x.dtype());
                 },
                 [](const BoundArgs& a, const Tensor& out) { matmulInto(a.tensor("self"), a.tensor("mat2"), out); })), lowerMm);
    lowerWith(r.add(makeOp("bmm", "bmm(Tensor self, Tensor mat2) -> Tensor", {.writesEveryElement = true},
                 [](const BoundArgs& a) {
                     const Tensor& x = a.tensor("self");
                     const Tensor& y = a.tensor("mat2");
                     if (x.dim() != 3) throw ScriptError("RuntimeError", "batch1 must be a 3D tensor");
                     if (y.dim() != 3) throw ScriptError("RuntimeError", "batch2 must be a 3D tensor");
                     if (y.sizes()[0] != x.sizes()[0] || y.sizes()[1] != x.sizes()[2])
                         throw ScriptError("RuntimeError", fmt::format("Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
                                                                       x.sizes()[0], x.sizes()[2], y.sizes()[0], y.sizes()[1]));
                     checkSameDtype(x, y);
                     return contiguousMeta({x.sizes()[0], x.sizes()[1], y.sizes()[2]}, x.dtype());
                 },
                 [](const BoundArgs& a, const Tensor& out) { matmulInto(a.tensor("self"), a.tensor("mat2"), out); })), lowerBmm);
    OpDef& linear = r.add(makeOp("linear", "linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor",
                                 {.function = false, .method = false, .functional = true, .writesEveryElement = true}, linearMeta,
                 [](const BoundArgs& a, const Tensor& out) {
                     const Tensor& input = a.tensor("input");
                     const Tensor& weight = a.tensor("weight");
                     // input @ weight.T: the transpose is just swapped strides.
                     Tensor wt = weight.asStrided({weight.sizes()[1], weight.sizes()[0]}, {weight.strides()[1], weight.strides()[0]},
                                                  weight.storageOffset());
                     // In half precision PyTorch's addmm adds the bias before its one rounding.
                     const bool halfWithBias = (out.dtype() == DType::Float16 || out.dtype() == DType::BFloat16) && !a["bias"].isNone();
                     const Tensor product = halfWithBias ? Tensor::empty(out.sizes(), DType::Float32) : out;
                     matmulInto(input, wt, product);
                     if (!a["bias"].isNone())
                         pointwiseApply(out, {product, a.tensor("bias")}, isFloating(out.dtype()) ? DType::Float64 : DType::Int64,
                                        ArithmeticFd<FloatArithmetic::Add>{}, [](const int64_t* v) { return v[0] + v[1]; });
                 }));
    decomposeWith(linear, decomposeLinear, true);
    // PyTorch's linear is addmm (mm without a bias) for a matrix, else a matmul and a view,
    // or, for an input that is not contiguous, a matmul plus the bias.
    gradFnNamedBy(linear, [](const BoundArgs& a) {
        const Tensor& input = a.tensor("input");
        const bool bias = !a["bias"].isNone();
        if (input.dim() == 2) return bias ? "AddmmBackward0" : "MmBackward0";
        if (input.dim() == 1) return bias ? "UnsafeViewBackward0" : "SqueezeBackward4";
        return bias && !input.isContiguous() ? "AddBackward0" : "UnsafeViewBackward0";
    });

    lowerWith(r.add(makeOp("cat", "cat(Tensor[] tensors, int dim=0) -> Tensor", {.method = false, .writesEveryElement = true},
                 [](const BoundArgs& a) { return catMeta(tensorList(a), a.integer("dim"), "cat"); },
                 [](const BoundArgs& a, const Tensor& out) { catInto(tensorList(a), a.integer("dim"), out); })), lowerCat);
    lowerWith(r.add(makeOp("stack", "stack(Tensor[] tensors, int dim=0) -> Tensor", {.method = false, .writesEveryElement = true},
                 [](const BoundArgs& a) { return catMeta(stackInputs(tensorList(a), a.integer("dim")), a.integer("dim"), "stack"); },
                 [](const BoundArgs& a, const Tensor& out) { catInto(stackInputs(tensorList(a), a.integer("dim")), a.integer("dim"), out); })), lowerStack);
    registerLinalgDerivatives(r);
}

}  // namespace fusescope
