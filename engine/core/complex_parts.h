#pragma once
// A complex tensor's values seen as real ones, without copying: PyTorch's view_as_real (a
// last dim of size 2 holding real and imaginary parts) and view_as_complex, and each part
// alone. Complex ops are computed as real ops on these views (opdefs/complex.cpp).

#include "core/tensor.h"

namespace fusescope {

// view_as_real: sizes + [2], strides doubled + [1], in the complex type's value type.
Tensor complexAsPairs(const Tensor& complex);
// view_as_complex: the inverse; raises PyTorch's errors when the last dim is not (2,) with
// stride 1 or another stride or the offset is odd.
Tensor pairsAsComplex(const Tensor& pairs);
// The real (part 0) or imaginary (part 1) values, as a view of the value type.
Tensor complexPart(const Tensor& complex, int part);

}  // namespace fusescope
