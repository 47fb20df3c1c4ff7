// Fused attention, what F.scaled_dot_product_attention runs on the CPU when it has no mask
// tensor and no dropout (library torch/nn/functional.py picks it, as PyTorch picks its
// flash kernel): softmax(q @ k^T * scale, causal or not) @ v over [B, H, L, D] inputs.
// Compiled, it is an extern kernel (fs_attention in the C++ prelude: blocks of query rows
// in parallel, an online softmax, key blocks a causal mask hides never computed); eager,
// one product, softmax and product per head.

#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "core/error.h"
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

ResultMeta attentionMeta(const BoundArgs& a) {
    AttentionShape s = attentionShape(a);
    return contiguousMeta({s.batch, s.heads, s.queries, s.valueDepth}, a.tensor("query").dtype());
}

// Per head: scores = q @ k^T * scale (BLAS), a softmax over each row's visible keys (in
// double), out = weights @ v (BLAS).
void attentionInto(const BoundArgs& a, const Tensor& out) {
    const AttentionShape s = attentionShape(a);
    const bool causal = a.flag("is_causal");
    const double scale = attentionScale(a);
    Tensor q = contiguousCopy(a.tensor("query")), k = contiguousCopy(a.tensor("key")), v = contiguousCopy(a.tensor("value"));
    const int dtype = out.dtype() == DType::Float64 ? 1 : 0;
    const size_t item = dtypeSize(out.dtype());
    Tensor scores = allocate(contiguousMeta({s.queries, s.keys}, out.dtype()));
    for (int64_t head = 0; head < s.batch * s.heads; ++head) {
        const char* qp = bytePtr(q) + head * s.queries * s.depth * static_cast<int64_t>(item);
        const char* kp = bytePtr(k) + head * s.keys * s.depth * static_cast<int64_t>(item);
        const char* vp = bytePtr(v) + head * s.keys * s.valueDepth * static_cast<int64_t>(item);
        char* op = bytePtr(out) + head * s.queries * s.valueDepth * static_cast<int64_t>(item);
        blasGemm(dtype, 0, 1, s.queries, s.keys, s.depth, scale, qp, s.depth, kp, s.depth, 0.0, bytePtr(scores), s.keys);
        for (int64_t i = 0; i < s.queries; ++i) {
            const int64_t visible = causal ? std::min(i + 1, s.keys) : s.keys;
            double top = -std::numeric_limits<double>::infinity(), sum = 0;
            for (int64_t j = 0; j < visible; ++j) top = std::max(top, scores.readDouble(i * s.keys + j));
            for (int64_t j = 0; j < s.keys; ++j) {
                double e = j < visible ? std::exp(scores.readDouble(i * s.keys + j) - top) : 0.0;
                scores.writeDouble(i * s.keys + j, e);
                sum += e;
            }
            for (int64_t j = 0; j < visible; ++j) scores.writeDouble(i * s.keys + j, scores.readDouble(i * s.keys + j) / sum);
        }
        blasGemm(dtype, 0, 0, s.queries, s.valueDepth, s.keys, 1.0, bytePtr(scores), s.keys, vp, s.valueDepth, 0.0, op, s.valueDepth);
    }
}

// The extern kernel on contiguous operands; its geometry: B, H, L, S, D, Dv, is_causal and
// the scale's bits.
std::vector<LValue> lowerAttention(LoweringContext& c, const LoweringArgs& a) {
    std::vector<LValue> operands;
    for (const char* name : {"query", "key", "value"}) {
        LValue x = a.tensor(name);
        if (!x.storageBacked() || !x.view.isContiguous()) {
            FixedLayout layout = c.contiguousLayout(x.sizes, x.dtype);
            x = c.realize(x, &layout, "an operand of fused attention (it reads contiguous [B, H, L, D] storage)");
        }
        operands.push_back(x);
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
    return {c.extern_(ExternKernelKind::Attention, operands, c.contiguousLayout(c.outputSizes(), c.meta().dtype), geometry)};
}

}  // namespace

void registerAttentionOps(OpRegistry& r) {
    lowerWith(r.add(makeOp("_scaled_dot_product_flash_attention_for_cpu",
                           "_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, "
                           "bool is_causal=False, *, float? scale=None) -> Tensor",
                           {true, false, false}, attentionMeta, attentionInto)),
              lowerAttention);
}

}  // namespace fusescope
