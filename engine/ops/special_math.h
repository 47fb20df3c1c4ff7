#pragma once
// digamma and erfinv, which libm lacks, written once: the eager kernels call them (namespace
// fusescope::special_math) and the generated code's preludes hold the same text
// (FUSESCOPE_SPECIAL_MATH_TEXT, codegen/common/fs_helpers.cpp). Computed in double; the
// float overloads round once. The code names only fs_log, fs_tan, fs_trunc, fs_erf,
// fs_exp, fs_sqrt and __builtin_inf (which CUDA has too).

#include <cmath>

#define FUSESCOPE_SPECIAL_MATH_CODE                                                                                     \
    /* digamma(x) = digamma(x + 1) - 1 / x up to 10, then its asymptotic series in 1 / x^2 (Bernoulli numbers); */    \
    /* below 0, digamma(1 - x) - pi / tan(pi x); infinite at 0 (with the zero's other sign), nan at negative ints */    \
    FS_INLINE double fs_digamma(double x) {                                                                            \
        const double pi = 3.14159265358979323846;                                                                       \
        if (x == 0) return 1 / x > 0 ? -__builtin_inf() : __builtin_inf();                                              \
        double reflected = 0;                                                                                           \
        if (x < 0) {                                                                                                    \
            if (x == fs_trunc(x)) return (__builtin_inf() - __builtin_inf());                                                             \
            reflected = -pi / fs_tan(pi * x);                                                                           \
            x = 1 - x;                                                                                                  \
        }                                                                                                               \
        double sum = 0;                                                                                                 \
        for (; x < 10; x += 1) sum -= 1 / x;                                                                            \
        const double y = 1 / (x * x);                                                                                   \
        const double tail =                                                                                             \
            y * (1.0 / 12 + y * (-1.0 / 120 + y * (1.0 / 252 + y * (-1.0 / 240 + y * (1.0 / 132 + y * (-691.0 / 32760 + y / 12)))))); \
        return sum + fs_log(x) - 0.5 / x - tail + reflected;                                                            \
    }                                                                                                                   \
    FS_INLINE float fs_digamma(float x) { return (float)fs_digamma((double)x); }                                        \
    /* Giles's approximation of erfinv, then two Newton steps on erf(x) = y */                                          \
    FS_INLINE double fs_erfinv(double y) {                                                                              \
        if (y <= -1 || y >= 1) return y == -1 ? -__builtin_inf() : y == 1 ? __builtin_inf() : (__builtin_inf() - __builtin_inf());        \
        double w = -fs_log((1 - y) * (1 + y)), p;                                                                       \
        if (w < 5) {                                                                                                    \
            w -= 2.5;                                                                                                   \
            p = 2.81022636e-08;                                                                                         \
            p = 3.43273939e-07 + p * w; p = -3.5233877e-06 + p * w; p = -4.39150654e-06 + p * w;                        \
            p = 0.00021858087 + p * w; p = -0.00125372503 + p * w; p = -0.00417768164 + p * w;                          \
            p = 0.246640727 + p * w; p = 1.50140941 + p * w;                                                            \
        } else {                                                                                                        \
            w = fs_sqrt(w) - 3;                                                                                         \
            p = -0.000200214257;                                                                                        \
            p = 0.000100950558 + p * w; p = 0.00134934322 + p * w; p = -0.00367342844 + p * w;                          \
            p = 0.00573950773 + p * w; p = -0.0076224613 + p * w; p = 0.00943887047 + p * w;                            \
            p = 1.00167406 + p * w; p = 2.83297682 + p * w;                                                             \
        }                                                                                                               \
        double x = p * y;                                                                                               \
        for (int i = 0; i < 2; ++i) x -= (fs_erf(x) - y) / (1.1283791670955126 * fs_exp(-x * x));                       \
        return x;                                                                                                       \
    }                                                                                                                   \
    FS_INLINE float fs_erfinv(float y) { return (float)fs_erfinv((double)y); }

#define FUSESCOPE_STRINGIZE_(...) #__VA_ARGS__
#define FUSESCOPE_STRINGIZE(...) FUSESCOPE_STRINGIZE_(__VA_ARGS__)
// The code as text, for the generated code's preludes.
#define FUSESCOPE_SPECIAL_MATH_TEXT FUSESCOPE_STRINGIZE(FUSESCOPE_SPECIAL_MATH_CODE)

namespace fusescope::special_math {

#define FS_INLINE inline
inline double fs_log(double x) { return std::log(x); }
inline double fs_tan(double x) { return std::tan(x); }
inline double fs_trunc(double x) { return std::trunc(x); }
inline double fs_erf(double x) { return std::erf(x); }
inline double fs_exp(double x) { return std::exp(x); }
inline double fs_sqrt(double x) { return std::sqrt(x); }
FUSESCOPE_SPECIAL_MATH_CODE
#undef FS_INLINE

}  // namespace fusescope::special_math
