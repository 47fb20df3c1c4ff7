// ops/float_math.h: the kernels for this CPU's instruction set, chosen once; built without
// libmvec, the kernels on scalar libm.
#include "ops/float_math.h"

#ifdef FUSESCOPE_EAGER_MVEC
#define FLOAT_MATH_KERNELS(declaration) \
    namespace avx2 { declaration; }     \
    namespace sse2 { declaration; }
#define FLOAT_MATH_CALL(function, ...) (hasAvx2() ? avx2::function(__VA_ARGS__) : sse2::function(__VA_ARGS__))
#else
#include <cmath>
#define FLOAT_MATH_ISA scalar
#include "ops/float_math_kernels.inc"
#define FLOAT_MATH_KERNELS(declaration)
#define FLOAT_MATH_CALL(function, ...) scalar::function(__VA_ARGS__)
#endif

namespace fusescope {

FLOAT_MATH_KERNELS(void applyFloatFunction(FloatFunction f, const float* in, float* out, int64_t n))
FLOAT_MATH_KERNELS(void applyFloatArithmetic(FloatArithmetic op, const float* a, float aValue, const float* b, float bValue, float* out, int64_t n))
FLOAT_MATH_KERNELS(float maxOfRow(const float* x, int64_t n))
FLOAT_MATH_KERNELS(double expsBelowShift(const float* x, double shift, double* exps, int64_t n))
FLOAT_MATH_KERNELS(double sumOfRow(const float* x, int64_t n))
FLOAT_MATH_KERNELS(double squaredDeviationsOfRow(const float* x, double mean, int64_t n))
FLOAT_MATH_KERNELS(void normalizeRow(const float* x, double mean, double rstd, const float* w, const float* b, float* y, int64_t n))
FLOAT_MATH_KERNELS(void divideRow(const double* exps, double sum, float* y, int64_t n))
FLOAT_MATH_KERNELS(void logSoftmaxRow(const float* x, double max, double logSum, float* y, int64_t n))

#ifdef FUSESCOPE_EAGER_MVEC
static bool hasAvx2() {
    static const bool avx2 = __builtin_cpu_supports("avx2");
    return avx2;
}
#endif

void applyFloatFunction(FloatFunction f, const float* in, float* out, int64_t n) { FLOAT_MATH_CALL(applyFloatFunction, f, in, out, n); }
void applyFloatArithmetic(FloatArithmetic op, const float* a, float aValue, const float* b, float bValue, float* out, int64_t n) {
    FLOAT_MATH_CALL(applyFloatArithmetic, op, a, aValue, b, bValue, out, n);
}
float maxOfRow(const float* x, int64_t n) { return FLOAT_MATH_CALL(maxOfRow, x, n); }
double expsBelowShift(const float* x, double shift, double* exps, int64_t n) { return FLOAT_MATH_CALL(expsBelowShift, x, shift, exps, n); }
double sumOfRow(const float* x, int64_t n) { return FLOAT_MATH_CALL(sumOfRow, x, n); }
double squaredDeviationsOfRow(const float* x, double mean, int64_t n) { return FLOAT_MATH_CALL(squaredDeviationsOfRow, x, mean, n); }
void normalizeRow(const float* x, double mean, double rstd, const float* w, const float* b, float* y, int64_t n) {
    FLOAT_MATH_CALL(normalizeRow, x, mean, rstd, w, b, y, n);
}
void divideRow(const double* exps, double sum, float* y, int64_t n) { FLOAT_MATH_CALL(divideRow, exps, sum, y, n); }
void logSoftmaxRow(const float* x, double max, double logSum, float* y, int64_t n) { FLOAT_MATH_CALL(logSoftmaxRow, x, max, logSum, y, n); }

}  // namespace fusescope
