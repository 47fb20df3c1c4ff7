#pragma once
// The marker CPython (and so Dynamo) prints under a source line to point at an expression:
// `~` under the expression, `^` under its anchor (the operator of `x * 2`, the arguments of
// a call, the index of a subscript), all `^` when it has none: "        ~~~~~~~~~~^^^".

#include <string>

namespace fusescope {

// Columns are 0-based offsets into the raw line: the expression spans [start, end), its anchor
// [left, right) (left < 0: none); the marker starts at the line's indent.
std::string anchoredMarker(int indent, int start, int end, int left, int right);

}  // namespace fusescope
