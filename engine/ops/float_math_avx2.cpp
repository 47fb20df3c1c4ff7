// ops/float_math_kernels.inc for AVX2: libmvec's 4-double _ZGVdN4v_ functions. Compiled with
// -mavx2 (engine/CMakeLists.txt); float_math.cpp calls it only on a CPU that has AVX2.
#ifdef FUSESCOPE_EAGER_MVEC
#include <immintrin.h>

#include <cstdint>

#include "ops/float_math.h"

using DoubleVec = __m256d;
constexpr int64_t kVectorLanes = 4;
#define FLOAT_MATH_ISA avx2
#define FLOAT_MATH_MVEC(f) _ZGVdN4v_##f
#include "ops/float_math_kernels.inc"
#endif
