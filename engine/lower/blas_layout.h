#pragma once
// How BLAS reads a matrix view (the last two dims of a layout): row-major or column-major
// storage with a leading dimension of at least the other extent. A view with neither a
// unit stride nor such a leading dimension (rows that overlap, as an expand's do) has none
// and must be copied first.

#include <optional>

#include "lower/ir.h"

namespace fusescope {

struct BlasLayout {
    bool transpose = false;  // column-major: BLAS reads the transpose of row-major storage
    IndexExpr leadingDim;
};

std::optional<BlasLayout> blasLayout(const FixedLayout& view);

}  // namespace fusescope
