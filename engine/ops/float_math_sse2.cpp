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
// SSE2's libmvec log rounds two floats of 2^32 (near ties, 0.0117943827 one) the other way
// from AVX2's and libm's (bench/scripts/check_float_math.sh): libm's log, lane by lane.
#include <cmath>
static __m128d libmLog(__m128d v) { return __m128d{std::log(v[0]), std::log(v[1])}; }
#define FLOAT_MATH_LOG libmLog
#include "ops/float_math_kernels.inc"
#endif
