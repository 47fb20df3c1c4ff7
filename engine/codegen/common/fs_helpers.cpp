// The fs_* helpers both preludes share: one spelling of each op for every dtype, with
// PyTorch's NaN rules (maximum/minimum propagate NaN, relu keeps it) and Python's floor
// division and modulo. Each prelude first defines FS_INLINE (how a helper is declared),
// FS_MATH(name, suffix) (its libm: Clang builtins on the CPU, CUDA's device math) and the
// fs_status flag that integer division by zero sets.

#include "codegen/common/fs_helpers.h"
#include "ops/special_math.h"

namespace fusescope {

const std::string& fsHelpers() {
    static const std::string helpers = R"HELPERS(template <class T> FS_INLINE bool fs_isnan(T x) { return x != x; }
template <class T> FS_INLINE bool fs_isinf(T x) { return x == __builtin_inf() || x == -__builtin_inf(); }
template <class T> FS_INLINE bool fs_isfinite(T x) { return !fs_isnan(x) && !fs_isinf(x); }
// One compare-and-select each, so they vectorise: a NaN in a wins by the first test, a
// NaN in b by falling through.
template <class T> FS_INLINE T fs_maximum(T a, T b) { return (a > b || a != a) ? a : b; }
template <class T> FS_INLINE T fs_minimum(T a, T b) { return (a < b || a != a) ? a : b; }
template <class T> FS_INLINE T fs_relu(T x) { return x < 0 ? T(0) : x; }
template <class T> FS_INLINE T fs_abs(T x) { return x < 0 ? -x : x; }
// sign(nan) is 0, as PyTorch computes it.
template <class T> FS_INLINE T fs_sign(T x) { return T((T(0) < x) - (x < T(0))); }
template <class T> FS_INLINE T fs_reciprocal(T x) { return T(1) / x; }
// ~ on a bool is an int; the bool's bitwise not is its logical not.
template <class T> FS_INLINE T fs_bitwise_not(T x) { return ~x; }
FS_INLINE bool fs_bitwise_not(bool x) { return !x; }
// Division by -1 negates with wrap-around (PyTorch's result for the minimum integer): the
// CPU's divide instruction traps on MIN / -1 and MIN % -1.
template <class T> FS_INLINE T fs_negate_wrapping(T a) { return T(0ull - (unsigned long long)a); }
template <class T> FS_INLINE T fs_floordiv(T a, T b) {
    if (b == 0) return fs_status = 1, T(0);
    if (b == -1) return fs_negate_wrapping(a);
    T q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}
template <class T> FS_INLINE T fs_mod(T a, T b) {
    if (b == 0) return fs_status = 1, T(0);
    if (b == -1) return T(0);
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
template <class T> FS_INLINE T fs_truncdiv(T a, T b) {
    return b == 0 ? (fs_status = 1, T(0)) : b == -1 ? fs_negate_wrapping(a) : a / b;
}
// An index another tensor holds (embedding): outside [0, n) it sets fs_status 2 (the
// runtime raises IndexError) and reads element 0 instead, so the kernel never reads
// outside the buffer.
template <class T> FS_INLINE T fs_check_index(T i, T n) { return (i < 0 || i >= n) ? (fs_status = 2, T(0)) : i; }
// An integer to a negative power is 0 unless its base is 1 or -1, as PyTorch's powi.
template <class T> FS_INLINE T fs_pow(T a, T b) {
    if (b < 0) return a == 1 ? T(1) : a == -1 ? T(b % 2 == 0 ? 1 : -1) : T(0);
    T r = 1;
    for (; b > 0; b >>= 1, a *= a) if (b & 1) r *= a;
    return r;
}
#define FS_FLOAT_OPS(T, S)                                                                      \
    FS_INLINE T fs_exp2(T x) { return FS_MATH(exp2, S)(x); }                                   \
    FS_INLINE T fs_expm1(T x) { return FS_MATH(expm1, S)(x); }                                 \
    FS_INLINE T fs_log(T x) { return FS_MATH(log, S)(x); }                                     \
    FS_INLINE T fs_log2(T x) { return FS_MATH(log2, S)(x); }                                   \
    FS_INLINE T fs_log1p(T x) { return FS_MATH(log1p, S)(x); }                                 \
    FS_INLINE T fs_sqrt(T x) { return FS_MATH(sqrt, S)(x); }                                   \
    FS_INLINE T fs_rsqrt(T x) { return T(1) / FS_MATH(sqrt, S)(x); }                           \
    FS_INLINE T fs_sin(T x) { return FS_MATH(sin, S)(x); }                                     \
    FS_INLINE T fs_cos(T x) { return FS_MATH(cos, S)(x); }                                     \
    FS_INLINE T fs_tanh(T x) { return FS_MATH(tanh, S)(x); }                                   \
    FS_INLINE T fs_erf(T x) { return FS_MATH(erf, S)(x); }                                     \
    FS_INLINE T fs_tan(T x) { return FS_MATH(tan, S)(x); }                                     \
    FS_INLINE T fs_asin(T x) { return FS_MATH(asin, S)(x); }                                   \
    FS_INLINE T fs_acos(T x) { return FS_MATH(acos, S)(x); }                                   \
    FS_INLINE T fs_atan(T x) { return FS_MATH(atan, S)(x); }                                   \
    FS_INLINE T fs_sinh(T x) { return FS_MATH(sinh, S)(x); }                                   \
    FS_INLINE T fs_cosh(T x) { return FS_MATH(cosh, S)(x); }                                   \
    FS_INLINE T fs_asinh(T x) { return FS_MATH(asinh, S)(x); }                                 \
    FS_INLINE T fs_acosh(T x) { return FS_MATH(acosh, S)(x); }                                 \
    FS_INLINE T fs_atanh(T x) { return FS_MATH(atanh, S)(x); }                                 \
    FS_INLINE T fs_erfc(T x) { return FS_MATH(erfc, S)(x); }                                   \
    FS_INLINE T fs_log10(T x) { return FS_MATH(log10, S)(x); }                                 \
    FS_INLINE T fs_trunc(T x) { return FS_MATH(trunc, S)(x); }                                 \
    FS_INLINE T fs_lgamma(T x) { return FS_MATH(lgamma, S)(x); }                               \
    FS_INLINE T fs_floor(T x) { return FS_MATH(floor, S)(x); }                                 \
    FS_INLINE T fs_ceil(T x) { return FS_MATH(ceil, S)(x); }                                   \
    FS_INLINE T fs_round(T x) { return FS_MATH(nearbyint, S)(x); }                             \
    FS_INLINE T fs_abs(T x) { return FS_MATH(fabs, S)(x); }                                    \
    FS_INLINE T fs_sigmoid(T x) { return T(1) / (T(1) + fs_exp(-x)); }                         \
    FS_INLINE T fs_silu(T x) { return x / (T(1) + fs_exp(-x)); }                               \
    FS_INLINE T fs_gelu(T x) { return T(0.5) * x * (T(1) + FS_MATH(erf, S)(x * T(0.70710678118654752440))); } \
    FS_INLINE T fs_gelu_tanh(T x) {                                                             \
        return T(0.5) * x * (T(1) + FS_MATH(tanh, S)(T(0.79788456080286535588) * (x + T(0.044715) * x * x * x))); \
    }                                                                                           \
    FS_INLINE T fs_pow(T a, T b) { return FS_MATH(pow, S)(a, b); }                             \
    FS_INLINE T fs_floordiv(T a, T b) { return FS_MATH(floor, S)(a / b); }                     \
    FS_INLINE T fs_truncdiv(T a, T b) { return FS_MATH(trunc, S)(a / b); }                     \
    FS_INLINE T fs_mod(T a, T b) {                                                              \
        T r = FS_MATH(fmod, S)(a, b);                                                          \
        if (r != 0 && ((r < 0) != (b < 0))) r += b;                                             \
        return r;                                                                               \
    }
FS_FLOAT_OPS(float, f)
FS_FLOAT_OPS(double, )
// digamma and erfinv have no libm function: special_math.h's, as the eager kernels compute
// them (in double, then rounded once).
)HELPERS" FUSESCOPE_SPECIAL_MATH_TEXT R"HELPERS(
FS_INLINE bool fs_isnan(int64_t) { return false; }
FS_INLINE bool fs_isnan(int32_t) { return false; }
FS_INLINE bool fs_isnan(bool) { return false; }
FS_INLINE bool fs_isinf(int64_t) { return false; }
FS_INLINE bool fs_isinf(int32_t) { return false; }
FS_INLINE bool fs_isinf(bool) { return false; }
)HELPERS";
    return helpers;
}

}  // namespace fusescope
