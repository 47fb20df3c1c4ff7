#pragma once
// Floating-point sum in the exact order of PyTorch's CPU kernel (ATen's cascade_sum in
// native/cpu/SumKernel.cpp), so float32/float16/bfloat16/float64 sums round identically.

#include <vector>

#include "core/tensor.h"

namespace fusescope {

// Sums `in` over the dims set in `mask` into `out` (contiguous, shaped like the reduction
// result, same floating dtype as `in`). Float16/BFloat16 accumulate in float, float32 in
// float, float64 in double.
void cascadeSum(const Tensor& in, const std::vector<bool>& mask, const Tensor& out);

}  // namespace fusescope
