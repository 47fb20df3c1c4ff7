#include "lower/blas_layout.h"

#include <algorithm>

namespace fusescope {

namespace {

bool isOne(const IndexExpr& e) { return e == IndexExpr(1); }

// Whether `ld` is provably at least max(1, extent): both constant, or the same expression.
bool coversExtent(const IndexExpr& ld, const IndexExpr& extent) {
    auto l = ld.constant(), e = extent.constant();
    if (l && e) return *l >= std::max<int64_t>(1, *e);
    return ld == extent;
}

// max(1, extent): a leading dimension BLAS accepts when the other dim has size 1 (its
// stride is then never used).
IndexExpr atLeastOne(const IndexExpr& extent) {
    auto e = extent.constant();
    return e && *e < 1 ? IndexExpr(1) : extent;
}

// Storage whose `inner` dim has unit stride, `outer` stepping by the leading dimension.
std::optional<IndexExpr> leadingDim(const IndexExpr& outerSize, const IndexExpr& outerStride, const IndexExpr& innerSize,
                                    const IndexExpr& innerStride) {
    if (!isOne(innerStride) && !isOne(innerSize)) return std::nullopt;
    if (isOne(outerSize)) return atLeastOne(innerSize);
    if (coversExtent(outerStride, innerSize)) return outerStride;
    return std::nullopt;
}

}  // namespace

std::optional<BlasLayout> blasLayout(const FixedLayout& view) {
    size_t n = view.size.size();
    const IndexExpr &rows = view.size[n - 2], &cols = view.size[n - 1];
    const IndexExpr &rowStride = view.stride[n - 2], &colStride = view.stride[n - 1];
    auto r = rows.constant(), c = cols.constant();
    if ((r && *r == 0) || (c && *c == 0)) return BlasLayout{false, IndexExpr(1)};  // an empty matrix is never read
    if (auto ld = leadingDim(rows, rowStride, cols, colStride)) return BlasLayout{false, *ld};
    if (auto ld = leadingDim(cols, colStride, rows, rowStride)) return BlasLayout{true, *ld};
    return std::nullopt;
}

}  // namespace fusescope
