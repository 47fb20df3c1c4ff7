// Fused attention, what F.scaled_dot_product_attention runs on the CPU when it has no mask
// tensor and no dropout (library torch/nn/functional.py picks it, as PyTorch picks its
// flash kernel): softmax(q @ k^T * scale, causal or not) @ v over [B, H, L, D] inputs.
// Compiled, it is an extern kernel (fs_attention in the C++ prelude: blocks of query rows
// in parallel, an online softmax, key blocks a causal mask hides never computed); eager,
// blocks of query rows in parallel too, each one product, softmax and product.

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "autograd/derivative_ops.h"
#include "core/error.h"
#include "core/parallel.h"
#include "opdefs/op_families.h"
#include "ops/blas_gemm.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

struct AttentionShape {
    int64_t batch, heads, queries, keys, depth, valueDepth;
};

AttentionShape attentionShape(const BoundArgs& a) {
    const Tensor &q = a.tensor("query"), &k = a.tensor("key"), &v = a.tensor("value");
    if (q.dim() != 4 || k.dim() != 4 || v.dim() != 4)
        throw ScriptError("RuntimeError", "_scaled_dot_product_flash_attention_for_cpu: query, key and value must be 4-D");
    if (q.dtype() != k.dtype() || q.dtype() != v.dtype())
        throw ScriptError("RuntimeError", "Expected query, key, and value to have the same dtype");
    if (q.dtype() != DType::Float32 && q.dtype() != DType::Float64)
        throw ScriptError("RuntimeError", "_scaled_dot_product_flash_attention_for_cpu: float32 or float64 inputs only");
    const Shape &qs = q.sizes(), &ks = k.sizes(), &vs = v.sizes();
    if (qs[0] != ks[0] || qs[0] != vs[0] || qs[1] != ks[1] || qs[1] != vs[1] || qs[3] != ks[3] || ks[2] != vs[2])
        throw ScriptError("RuntimeError", fmt::format("_scaled_dot_product_flash_attention_for_cpu: shapes {}, {} and {} do not match",
                                                      shapeStr(qs), shapeStr(ks), shapeStr(vs)));
    return {qs[0], qs[1], qs[2], ks[2], qs[3], vs[3]};
}

double attentionScale(const BoundArgs& a) {
    return a["scale"].isNone() ? 1.0 / std::sqrt(static_cast<double>(a.tensor("query").sizes()[3])) : a.number("scale");
}

// As PyTorch's: laid out like the query (its strides when dense, else its dims' order), so
// attention over heads split from one [B, L, 3C] product returns [B, L, H, D] storage and
// the usual transpose(1, 2).reshape(B, L, C) after it moves nothing.
ResultMeta attentionMeta(const BoundArgs& a) {
    const AttentionShape s = attentionShape(a);
    const Tensor& q = a.tensor("query");
    ResultMeta meta = contiguousMeta({s.batch, s.heads, s.queries, s.valueDepth}, q.dtype());
    if (s.valueDepth == s.depth) meta.strides = pointwiseStrides(q.sizes(), {q});
    return meta;
}

// A [B, H, rows, depth] operand as the eager kernel reads it in place: its depth dim's stride
// 1 and rows that do not overlap (views of one qkv product qualify), else a contiguous copy.
struct HeadRows {
    Tensor tensor;
    int64_t batchStride, headStride, rowStride;
    char* rows(int64_t batchHead, int64_t heads) const {
        const int64_t b = batchHead / heads, h = batchHead % heads;
        return bytePtr(tensor) + (b * batchStride + h * headStride) * static_cast<int64_t>(dtypeSize(tensor.dtype()));
    }
};

HeadRows headRows(const Tensor& t, bool mayCopy = true) {
    const Shape& size = t.sizes();
    int64_t rowStride = size[2] == 1 ? std::max<int64_t>(size[3], 1) : t.strides()[2];  // one row is never stepped over
    if ((t.strides()[3] == 1 || size[3] == 1) && rowStride >= size[3]) return {t, t.strides()[0], t.strides()[1], rowStride};
    if (!mayCopy) return {Tensor(), 0, 0, 0};
    return headRows(contiguousCopy(t), false);
}

// softmax(q @ k^T * scale) @ v by blocks of 64 query rows, the blocks across threads: each
// block's scores over the keys its rows see (BLAS; under is_causal the keys past its last
// row are never computed), a softmax over each row's visible keys (float32 as softmax's
// rows, else in double), then the block's output rows = weights @ v (BLAS).
void attentionInto(const BoundArgs& a, const Tensor& result) {
    constexpr int64_t kBlockRows = 64;
    const AttentionShape s = attentionShape(a);
    const bool causal = a.flag("is_causal");
    const double scale = attentionScale(a);
    const HeadRows q = headRows(a.tensor("query")), k = headRows(a.tensor("key")), v = headRows(a.tensor("value"));
    HeadRows out = headRows(result, false);
    if (!out.tensor.defined()) out = headRows(allocateUnwritten(contiguousMeta(result.sizes(), result.dtype())), false);
    const DType dtype = result.dtype();
    const int dtypeCode = dtype == DType::Float64 ? 1 : 0;
    const int64_t item = static_cast<int64_t>(dtypeSize(dtype)), blocks = (s.queries + kBlockRows - 1) / kBlockRows;
    auto block = [&](int64_t batchHead, int64_t r0, char* scores) {
        const int64_t rows = std::min(kBlockRows, s.queries - r0), seen = causal ? std::min(r0 + rows, s.keys) : s.keys;
        char* outRows = out.rows(batchHead, s.heads) + r0 * out.rowStride * item;
        blasGemm(dtypeCode, 0, 1, rows, seen, s.depth, scale, q.rows(batchHead, s.heads) + r0 * q.rowStride * item, q.rowStride,
                 k.rows(batchHead, s.heads), k.rowStride, 0.0, scores, seen);
        for (int64_t i = 0; i < rows; ++i) {
            const int64_t visible = causal ? std::min(r0 + i + 1, s.keys) : s.keys;
            char* row = scores + i * seen * item;
            if (dtype == DType::Float32) {  // softmax's row kernels (ops/float_math.h)
                thread_local std::vector<double> exps;
                exps.resize(static_cast<std::size_t>(visible));
                float* x = reinterpret_cast<float*>(row);
                divideRow(exps.data(), expsBelowShift(x, maxOfRow(x, visible), exps.data(), visible), x, visible);
                std::fill(x + visible, x + seen, 0.0f);
                continue;
            }
            double top = -std::numeric_limits<double>::infinity(), sum = 0;
            auto at = [&](int64_t j) { return row + j * item; };
            for (int64_t j = 0; j < visible; ++j) top = std::max(top, loadDouble(at(j), dtype));
            for (int64_t j = 0; j < seen; ++j) {
                double e = j < visible ? std::exp(loadDouble(at(j), dtype) - top) : 0.0;
                storeDouble(at(j), dtype, e);
                sum += e;
            }
            for (int64_t j = 0; j < visible; ++j) storeDouble(at(j), dtype, loadDouble(at(j), dtype) / sum);
        }
        blasGemm(dtypeCode, 0, 0, rows, s.valueDepth, seen, 1.0, scores, seen, v.rows(batchHead, s.heads), v.rowStride, 0.0, outRows,
                 out.rowStride);
    };
    const int64_t work = s.batch * s.heads * blocks;
    parallelFor(work, std::max<int64_t>(1, kParallelGrain / (kBlockRows * std::max<int64_t>(s.keys, 1))), [&](int64_t begin, int64_t end) {
        std::vector<char> scores(static_cast<std::size_t>(kBlockRows * std::max<int64_t>(s.keys, 1) * item));
        for (int64_t w = begin; w < end; ++w) {
            throwIfCancelled();
            block(w / blocks, w % blocks * kBlockRows, scores.data());
        }
    });
    if (out.tensor.impl() != result.impl()) copyInto(result, out.tensor);
}

// An operand the kernel reads in place: [B, H, rows, depth] with constant strides, the
// depth dim's 1 and rows that do not overlap; its B, H and row strides go to the geometry.
std::optional<std::vector<int64_t>> attentionStrides(const FixedLayout& x) {
    std::optional<std::vector<int64_t>> known = constantValues(x.stride);
    if (!known) return std::nullopt;
    std::vector<int64_t> strides = *known;
    const std::optional<int64_t> rows = x.size[2].constant(), depth = x.size[3].constant();
    if (!rows || !depth || (strides[3] != 1 && *depth != 1)) return std::nullopt;
    if (*rows == 1) strides[2] = std::max<int64_t>(strides[2], *depth);  // never stepped over; BLAS wants ld >= depth
    if (strides[2] < *depth) return std::nullopt;
    strides.pop_back();
    return strides;
}

// The extern kernel reading q, k and v through their strides (views of one qkv product
// need no copies); its geometry: B, H, L, S, D, Dv, is_causal, the scale's bits, then the
// B, H and row strides of q, k, v and the result.
std::vector<LValue> lowerAttention(LoweringContext& c, const LoweringArgs& a) {
    std::vector<LValue> operands;
    std::vector<int64_t> strides;
    for (const char* name : {"query", "key", "value"}) {
        LValue x = a.tensor(name);
        std::optional<std::vector<int64_t>> readable;
        if (x.storageBacked()) readable = attentionStrides(x.view);
        if (!readable) {
            FixedLayout layout = c.contiguousLayout(x.sizes, x.dtype);
            x = c.realize(x, &layout, "an operand of fused attention (it reads [B, H, L, D] storage whose last dim is dense)");
            readable = attentionStrides(x.view);
        }
        operands.push_back(x);
        strides.insert(strides.end(), readable->begin(), readable->end());
    }
    std::vector<int64_t> geometry;
    for (const IndexExpr& size : {operands[0].sizes[0], operands[0].sizes[1], operands[0].sizes[2], operands[1].sizes[2],
                                  operands[0].sizes[3], operands[2].sizes[3]}) {
        std::optional<int64_t> n = size.constant();
        if (!n) c.unsupported("fused attention with dynamic sizes");
        geometry.push_back(*n);
    }
    geometry.push_back(a.bound().flag("is_causal"));
    const double scale = attentionScale(a.bound());
    int64_t bits;
    std::memcpy(&bits, &scale, sizeof bits);
    geometry.push_back(bits);
    // The result in eager's strides (PyTorch's layout) when the kernel can write them, else row-major.
    const FixedLayout rowMajor = c.contiguousLayout(c.outputSizes(), c.meta().dtype);
    FixedLayout layout = rowMajor;
    for (size_t d = 0; d < layout.stride.size() && d < c.meta().strides.size(); ++d) layout.stride[d] = IndexExpr(c.meta().strides[d]);
    std::optional<std::vector<int64_t>> written = attentionStrides(layout);
    if (!written) written = attentionStrides(layout = rowMajor);
    geometry.insert(geometry.end(), strides.begin(), strides.end());
    geometry.insert(geometry.end(), written->begin(), written->end());
    return {c.extern_(ExternKernelKind::Attention, operands, layout, geometry)};
}

// The probabilities recomputed, then as softmax's and two products' derivatives: with
// P = softmax(S), S = q k^T scale: dv = P^T g, dS = P (g v^T - rowsum(g v^T P)),
// dq = dS k scale, dk = dS^T q scale.
ArgumentGradients attentionGradients(const DerivativeArgs& d) {
    const Tensor &q = d.input("query"), &k = d.input("key"), &v = d.input("value");
    const double scale = attentionScale(d.args);
    Tensor scores = grad::mul(grad::call("matmul", {q, grad::transpose(k, -2, -1)}), scale);
    if (d.args.flag("is_causal")) {
        Kwargs boolsOnQ = grad::onDeviceOf(q);
        boolsOnQ.emplace_back("dtype", IValue(DType::Bool));
        Tensor visible = grad::call("tril", {grad::call("ones", {IValue::intList({q.size(2), k.size(2)})}, boolsOnQ)});
        scores = grad::call("masked_fill", {scores, grad::call("logical_not", {visible}), -std::numeric_limits<double>::infinity()});
    }
    Tensor p = grad::call("softmax", {scores, -1});
    Tensor dp = grad::call("matmul", {d.grad, grad::transpose(v, -2, -1)});
    Tensor ds = grad::mul(p, grad::sub(dp, grad::call("sum", {grad::mul(dp, p), IValue::intList({-1}), true})));
    ArgumentGradients g;
    if (d.wants("query")) g.emplace_back("query", grad::fitTo(grad::mul(grad::call("matmul", {ds, k}), scale), q));
    if (d.wants("key")) g.emplace_back("key", grad::fitTo(grad::mul(grad::call("matmul", {grad::transpose(ds, -2, -1), q}), scale), k));
    if (d.wants("value")) g.emplace_back("value", grad::fitTo(grad::call("matmul", {grad::transpose(p, -2, -1), d.grad}), v));
    return g;
}

}  // namespace

void registerAttentionOps(OpRegistry& r) {
    lowerWith(r.add(makeOp("_scaled_dot_product_flash_attention_for_cpu",
                           "_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, "
                           "bool is_causal=False, *, float? scale=None) -> Tensor",
                           {.method = false, .writesEveryElement = true}, attentionMeta, attentionInto)),
              lowerAttention);
    differentiateWith(r.definition("_scaled_dot_product_flash_attention_for_cpu"), attentionGradients);
}

}  // namespace fusescope
