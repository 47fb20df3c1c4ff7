#pragma once
// A value made of pieces, as cat and stack are: each output element picks one input by its
// position. Each input is read through a masked load (not performed where the element
// belongs to another input), so no read goes out of bounds; a where-chain picks the value.

#include <functional>
#include <vector>

#include "lower/lowering_context.h"

namespace fusescope {

// One input: which output elements are its, and where they are in it.
struct Piece {
    LValue value;
    std::function<int(LoopBodyBuilder&, const std::vector<IndexExpr>&)> mine;  // bool op
    std::function<std::vector<IndexExpr>(const std::vector<IndexExpr>&)> at;
};

// The node's output from its pieces (inputs that are not buffers are realized first).
LValue piecewise(LoweringContext& c, std::vector<Piece> pieces);
// An index as an int64 op: a constant when it is one.
int indexConstant(LoopBodyBuilder& b, const IndexExpr& e);

}  // namespace fusescope
