#pragma once
// What grad mode (core/grad_mode.h) makes of an eager op's results: when an input requires
// grad, each floating result requires grad and records the backward node PyTorch would
// give it; an in-place op on a leaf that requires grad is refused, as in PyTorch.

#include "ops/op_registry.h"

namespace fusescope {

// Raises PyTorch's error for an in-place op on a leaf requiring grad; call before the op runs.
void checkInplaceOnLeaf(const OpDef& op, const BoundArgs& args);
// Marks the results after the op ran.
void recordGradFn(const OpDef& op, const BoundArgs& args, const IValue& result);

// "MulBackward0" for mul: the name of the op's backward node in PyTorch.
std::string gradFnName(const std::string& opName);

}  // namespace fusescope
