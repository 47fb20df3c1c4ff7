#pragma once
// The building blocks of view lowerings. Views move no data: a view of a buffer stays a
// strided view of that buffer's storage (so extern kernels can take it as is), a view of
// a lazy value re-indexes its element function.

#include <vector>

#include "lower/lowering_context.h"

namespace fusescope {

std::vector<int64_t> normalizedDims(const std::vector<int64_t>& dims, size_t rank);  // negative dims counted from the end

LValue permute(LoweringContext& c, const LValue& src, const std::vector<int64_t>& perm);
// Through the flat (row-major) position; stays strided for contiguous sources.
LValue reshape(LoweringContext& c, const LValue& src, std::vector<IndexExpr> sizes);
// Dim `dim` fixed at `at` and removed.
LValue select(LoweringContext& c, const LValue& src, int64_t dim, IndexExpr at);
// Dim `dim` from `start` in steps of `step`, `length` elements.
LValue slice(LoweringContext& c, const LValue& src, int64_t dim, int64_t start, int64_t step, IndexExpr length);
// Inserts / removes size-1 dims (unsqueeze, squeeze) to `sizes`.
LValue restride(LoweringContext& c, const LValue& src, std::vector<IndexExpr> sizes);
// Broadcasts src to `sizes` (expand): new dims in front, size-1 dims repeated.
LValue expandTo(LoweringContext& c, const LValue& src, std::vector<IndexExpr> sizes);

}  // namespace fusescope
