#pragma once
// torch functions' out= argument: the op runs as without it, then its result is written into
// the tensor (or tensors) given, as PyTorch's out= variants write theirs.

#include <string>

#include "script/value.h"

namespace fusescope {

class Interpreter;

// Writes `result` into `out` (a tensor, or a tuple or list of them for an op of several
// results) and returns out. PyTorch's errors: a result dtype out cannot hold, an input that
// requires grad while grad mode is on. An out of another shape, which PyTorch resizes (with
// a warning when it held elements), is refused: Fusescope's tensors do not resize.
Value writeToOut(Interpreter& in, const std::string& opName, const CallArgs& call, const Value& result, const Value& out);

}  // namespace fusescope
