#include "lower/view_lowering.h"

#include <algorithm>

namespace fusescope {

namespace {

using Remap = std::function<std::vector<IndexExpr>(const std::vector<IndexExpr>& newIndex, const VarRanges& ranges)>;

// A view with new sizes whose element i is the source's element remap(i). `strided`
// gives the new layout of a storage-backed source when the view is expressible as strides.
LValue view(LoweringContext& c, const LValue& src, std::vector<IndexExpr> sizes, Remap remap,
            std::function<std::optional<FixedLayout>(const FixedLayout&)> strided) {
    if (src.storageBacked() && strided) {
        if (auto layout = strided(src.view)) {
            LValue v = src;
            v.sizes = sizes;
            v.view = *layout;
            v.view.size = sizes;
            // A view of a buffer in another order keeps what order its strides still have.
            if (!v.memoryOrder.empty()) v.memoryOrder = memoryOrderOf(v.view);
            v.origins = c.lazy({}, src.dtype, nullptr, {src}).origins;
            return v;
        }
    }
    return c.lazy(sizes, src.dtype,
                  [src, remap](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) { return src.load(b, remap(index, b.ranges())); },
                  {src});
}

}  // namespace

std::vector<int64_t> normalizedDims(const std::vector<int64_t>& dims, size_t rank) {
    std::vector<int64_t> out;
    for (int64_t d : dims) out.push_back(normalizeDim(d, rank));
    return out;
}

LValue permute(LoweringContext& c, const LValue& src, const std::vector<int64_t>& perm) {
    std::vector<IndexExpr> sizes;
    for (int64_t p : perm) sizes.push_back(src.sizes[p]);
    return view(
        c, src, sizes,
        [perm](const std::vector<IndexExpr>& index, const VarRanges&) {
            std::vector<IndexExpr> old(index.size());
            for (size_t i = 0; i < perm.size(); ++i) old[perm[i]] = index[i];
            return old;
        },
        [perm](const FixedLayout& l) -> std::optional<FixedLayout> {
            FixedLayout out = l;
            for (size_t i = 0; i < perm.size(); ++i) out.stride[i] = l.stride[perm[i]];
            return out;
        });
}

LValue reshape(LoweringContext& c, const LValue& src, std::vector<IndexExpr> sizes) {
    std::vector<IndexExpr> oldSizes = src.sizes;
    std::vector<IndexExpr> newStrides = contiguousStrides(sizes), oldStrides = contiguousStrides(oldSizes);
    return view(
        c, src, sizes,
        [oldSizes, newStrides, oldStrides](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
            IndexExpr flat;
            for (size_t i = 0; i < index.size(); ++i) flat = flat + index[i] * newStrides[i];
            std::vector<IndexExpr> old;
            for (size_t k = 0; k < oldSizes.size(); ++k) {
                IndexExpr q = IndexExpr::floorDiv(flat, oldStrides[k], ranges);
                old.push_back(k == 0 ? q : IndexExpr::mod(q, oldSizes[k], ranges));
            }
            return old;
        },
        [sizes](const FixedLayout& l) -> std::optional<FixedLayout> {
            FixedLayout out = l;
            if (FixedLayout{l.device, l.dtype, l.size, l.stride, {}}.isContiguous()) {
                out.stride = contiguousStrides(sizes);
                return out;
            }
            // Known strides: a view whenever eager's would be one (heads split from a slice).
            std::optional<Shape> oldSizes = constantValues(l.size), oldStrides = constantValues(l.stride), newSizes = constantValues(sizes);
            if (!oldSizes || !oldStrides || !newSizes) return std::nullopt;
            std::optional<Shape> strides = viewStrides(*oldSizes, *oldStrides, *newSizes);
            if (!strides) return std::nullopt;
            out.stride.clear();
            for (int64_t stride : *strides) out.stride.push_back(IndexExpr(stride));
            return out;
        });
}

LValue select(LoweringContext& c, const LValue& src, int64_t dim, IndexExpr at) {
    std::vector<IndexExpr> sizes = src.sizes;
    sizes.erase(sizes.begin() + dim);
    return view(
        c, src, sizes,
        [dim, at](const std::vector<IndexExpr>& index, const VarRanges&) {
            std::vector<IndexExpr> old = index;
            old.insert(old.begin() + dim, at);
            return old;
        },
        [dim, at](const FixedLayout& l) -> std::optional<FixedLayout> {
            FixedLayout out = l;
            out.offset = l.offset + at * l.stride[dim];
            out.stride.erase(out.stride.begin() + dim);
            return out;
        });
}

LValue slice(LoweringContext& c, const LValue& src, int64_t dim, int64_t start, int64_t step, IndexExpr length) {
    std::vector<IndexExpr> sizes = src.sizes;
    sizes[dim] = length;
    return view(
        c, src, sizes,
        [dim, start, step](const std::vector<IndexExpr>& index, const VarRanges&) {
            std::vector<IndexExpr> old = index;
            old[dim] = IndexExpr(start) + index[dim] * IndexExpr(step);
            return old;
        },
        [dim, start, step](const FixedLayout& l) -> std::optional<FixedLayout> {
            FixedLayout out = l;
            out.offset = l.offset + IndexExpr(start) * l.stride[dim];
            out.stride[dim] = l.stride[dim] * IndexExpr(step);
            return out;
        });
}

namespace {

// The view of src whose dim target[k] is source dim k (-1: a source dim of size 1 that is
// gone or broadcast, read at 0).
LValue mapDims(LoweringContext& c, const LValue& src, std::vector<IndexExpr> sizes, std::vector<int> target) {
    return view(
        c, src, sizes,
        [target](const std::vector<IndexExpr>& index, const VarRanges&) {
            std::vector<IndexExpr> old;
            for (int t : target) old.push_back(t < 0 ? IndexExpr(0) : index[t]);
            return old;
        },
        [target, sizes](const FixedLayout& l) -> std::optional<FixedLayout> {
            FixedLayout out = l;
            out.stride.assign(sizes.size(), IndexExpr(0));
            for (size_t k = 0; k < target.size(); ++k)
                if (target[k] >= 0) out.stride[target[k]] = l.stride[k];
            // Size-1 dims get the stride PyTorch gives them, so strided layouts print alike.
            for (size_t d = sizes.size(); d-- > 0;)
                if (sizes[d] == IndexExpr(1))
                    out.stride[d] = d + 1 < sizes.size() ? out.stride[d + 1] * sizes[d + 1] : IndexExpr(1);
            return out;
        });
}

}  // namespace

LValue restride(LoweringContext& c, const LValue& src, std::vector<IndexExpr> sizes) {
    // Source dim k maps to the output dim it matches from the right, skipping size-1 dims:
    // only size-1 dims come or go, so the others keep their order.
    std::vector<int> target(src.sizes.size(), -1);
    int o = static_cast<int>(sizes.size()) - 1;
    for (int k = static_cast<int>(src.sizes.size()) - 1; k >= 0; --k) {
        if (src.sizes[k] == IndexExpr(1)) continue;
        while (o >= 0 && sizes[o] != src.sizes[k]) --o;
        if (o < 0) c.unsupported("a view whose dims can't be matched to its source");
        target[k] = o--;
    }
    return mapDims(c, src, std::move(sizes), std::move(target));
}

LValue expandTo(LoweringContext& c, const LValue& src, std::vector<IndexExpr> sizes) {
    // Dims align from the right, whatever their sizes (a (2, 1, 3) source expanded to
    // (2, 2, 3) keeps its first dim first).
    std::vector<int> target(src.sizes.size(), -1);
    const int lead = static_cast<int>(sizes.size() - src.sizes.size());
    for (size_t k = 0; k < src.sizes.size(); ++k)
        if (src.sizes[k] != IndexExpr(1) || sizes[k + static_cast<size_t>(lead)] == IndexExpr(1)) target[k] = static_cast<int>(k) + lead;
    return mapDims(c, src, std::move(sizes), std::move(target));
}

}  // namespace fusescope
