// The prelude of every generated C++ module. Overloads give each op one spelling for every
// dtype; NaN handling follows PyTorch (maximum/minimum propagate NaN, relu keeps it).

#include "codegen/cpp/cpp_codegen.h"

namespace fusescope {

const std::string& cppPrelude() {
    static const std::string prelude = R"PRELUDE(// Fusescope generated code (C++17, compiled in-process by Clang)
typedef long int64_t;
typedef int int32_t;
extern "C" void* fs_alloc(int64_t bytes);
extern "C" void fs_free(void* p, int64_t bytes);
extern "C" void fs_gemm(int dtype, int transA, int transB, int64_t m, int64_t n, int64_t k, double alpha,
                        const void* a, int64_t lda, const void* b, int64_t ldb, double beta, void* c, int64_t ldc);
// Profiler spans around each kernel call: begin returns null at once when nothing records.
extern "C" void* fs_trace_begin(int call, int nbuffers, ...);
extern "C" void fs_trace_end(void* span);

#define FS_INLINE static inline __attribute__((always_inline))
// Set when integer division by zero happened; call() returns it and the runtime raises
// ZeroDivisionError as eager does. (Zero-initialised: no static initialiser runs.)
static int fs_status;
template <class T> FS_INLINE bool fs_isnan(T x) { return x != x; }
template <class T> FS_INLINE bool fs_isinf(T x) { return x == __builtin_inf() || x == -__builtin_inf(); }
template <class T> FS_INLINE bool fs_isfinite(T x) { return !fs_isnan(x) && !fs_isinf(x); }
// One compare-and-select each, so they vectorise: a NaN in a wins by the first test, a
// NaN in b by falling through.
template <class T> FS_INLINE T fs_maximum(T a, T b) { return (a > b || a != a) ? a : b; }
template <class T> FS_INLINE T fs_minimum(T a, T b) { return (a < b || a != a) ? a : b; }
template <class T> FS_INLINE T fs_relu(T x) { return x < 0 ? T(0) : x; }
template <class T> FS_INLINE T fs_abs(T x) { return x < 0 ? -x : x; }
template <class T> FS_INLINE T fs_sign(T x) { return x != x ? x : T((T(0) < x) - (x < T(0))); }
template <class T> FS_INLINE T fs_floordiv(T a, T b) {
    if (b == 0) return fs_status = 1, T(0);
    T q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}
template <class T> FS_INLINE T fs_mod(T a, T b) {
    if (b == 0) return fs_status = 1, T(0);
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
template <class T> FS_INLINE T fs_truncdiv(T a, T b) { return b == 0 ? (fs_status = 1, T(0)) : a / b; }
template <class T> FS_INLINE T fs_pow(T a, T b) {
    T r = 1;
    for (; b > 0; b >>= 1, a *= a) if (b & 1) r *= a;
    return r;
}
#define FS_FLOAT_OPS(T, S)                                                                      \
    FS_INLINE T fs_exp(T x) { return __builtin_exp##S(x); }                                     \
    FS_INLINE T fs_exp2(T x) { return __builtin_exp2##S(x); }                                   \
    FS_INLINE T fs_expm1(T x) { return __builtin_expm1##S(x); }                                 \
    FS_INLINE T fs_log(T x) { return __builtin_log##S(x); }                                     \
    FS_INLINE T fs_log2(T x) { return __builtin_log2##S(x); }                                   \
    FS_INLINE T fs_log1p(T x) { return __builtin_log1p##S(x); }                                 \
    FS_INLINE T fs_sqrt(T x) { return __builtin_sqrt##S(x); }                                   \
    FS_INLINE T fs_rsqrt(T x) { return T(1) / __builtin_sqrt##S(x); }                           \
    FS_INLINE T fs_sin(T x) { return __builtin_sin##S(x); }                                     \
    FS_INLINE T fs_cos(T x) { return __builtin_cos##S(x); }                                     \
    FS_INLINE T fs_tanh(T x) { return __builtin_tanh##S(x); }                                   \
    FS_INLINE T fs_erf(T x) { return __builtin_erf##S(x); }                                     \
    FS_INLINE T fs_floor(T x) { return __builtin_floor##S(x); }                                 \
    FS_INLINE T fs_ceil(T x) { return __builtin_ceil##S(x); }                                   \
    FS_INLINE T fs_round(T x) { return __builtin_nearbyint##S(x); }                             \
    FS_INLINE T fs_abs(T x) { return __builtin_fabs##S(x); }                                    \
    FS_INLINE T fs_sigmoid(T x) { return T(1) / (T(1) + __builtin_exp##S(-x)); }               \
    FS_INLINE T fs_silu(T x) { return x / (T(1) + __builtin_exp##S(-x)); }                     \
    FS_INLINE T fs_gelu(T x) { return T(0.5) * x * (T(1) + __builtin_erf##S(x * T(0.70710678118654752440))); } \
    FS_INLINE T fs_gelu_tanh(T x) {                                                             \
        return T(0.5) * x * (T(1) + __builtin_tanh##S(T(0.79788456080286535588) * (x + T(0.044715) * x * x * x))); \
    }                                                                                           \
    FS_INLINE T fs_pow(T a, T b) { return __builtin_pow##S(a, b); }                             \
    FS_INLINE T fs_floordiv(T a, T b) { return __builtin_floor##S(a / b); }                     \
    FS_INLINE T fs_truncdiv(T a, T b) { return __builtin_trunc##S(a / b); }                     \
    FS_INLINE T fs_mod(T a, T b) {                                                              \
        T r = __builtin_fmod##S(a, b);                                                          \
        if (r != 0 && ((r < 0) != (b < 0))) r += b;                                             \
        return r;                                                                               \
    }
FS_FLOAT_OPS(float, f)
FS_FLOAT_OPS(double, )
FS_INLINE bool fs_isnan(int64_t) { return false; }
FS_INLINE bool fs_isnan(int32_t) { return false; }
FS_INLINE bool fs_isnan(bool) { return false; }
FS_INLINE bool fs_isinf(int64_t) { return false; }
FS_INLINE bool fs_isinf(int32_t) { return false; }
FS_INLINE bool fs_isinf(bool) { return false; }
)PRELUDE";
    return prelude;
}

}  // namespace fusescope
