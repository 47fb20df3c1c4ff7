#pragma once
// Autograd through in-place ops on views, as PyTorch's CopySlices: `y[:, :2].copy_(src)` or
// `v = y[0]; v.mul_(2)` change the base too, so the base's history must include the op (the
// gradient of src, zero where y was overwritten). Views remember their base; an in-place op
// on a view makes the base's history a CopySlices node around the op's node, and a view
// whose storage changed since its history was made gets it again from the base's.

#include <memory>

#include "core/autograd_node.h"
#include "ops/op_registry.h"

namespace fusescope {

// Records the base of the views among `result` (an op that may alias gave back tensors
// sharing its first argument's storage).
void recordViewBase(const OpDef& op, const BoundArgs& args, const IValue& result);

// Whether `t` is a view whose base has a history.
bool viewOfHistory(const Tensor& t);

// A view changed in place by the op whose backward node is `node` (one edge per tensor
// argument, the first the view's): the base's history becomes CopySlices(node), the view's
// an as_strided of the base's.
void rebaseViewHistory(const Tensor& view, const std::shared_ptr<AutogradNode>& node);

// A view whose storage changed (in place, through it or its base) since its history was
// made gets it again from its base's, so a gradient through it reaches the change.
void refreshViewHistory(const Tensor& t);

// PyTorch's error for an in-place op on a view of a leaf that requires grad.
void checkInplaceOnViewOfLeaf(const Tensor& self);

}  // namespace fusescope
