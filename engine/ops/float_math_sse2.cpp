// ops/float_math_kernels.inc for SSE2, which every x86-64 CPU has: libmvec's 2-double
// _ZGVbN2v_ functions.
#ifdef FUSESCOPE_EAGER_MVEC
#include <immintrin.h>

#include <cstdint>

#include "ops/float_math.h"

using DoubleVec = __m128d;
constexpr int64_t kVectorLanes = 2;
#define FLOAT_MATH_ISA sse2
#define FLOAT_MATH_MVEC(f) _ZGVbN2v_##f
#include "ops/float_math_kernels.inc"
#endif
