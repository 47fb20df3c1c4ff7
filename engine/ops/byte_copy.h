#pragma once
// Copies between tensors of one dtype move bytes: no trip through double, whole rows at a
// time where both tensors' rows are contiguous (x.transpose(1, 2).contiguous(), a view of
// heads copied out of a qkv buffer), rows split across threads.

#include "core/tensor.h"

namespace fusescope {

// dst = src (broadcast to dst's shape) where both have one dtype and no element of dst is
// read: true once done, false (nothing written) for copyInto's general loop to do it.
bool copyBytesInto(const Tensor& dst, const Tensor& src);

}  // namespace fusescope
