// The prelude of every generated C++ module: runtime entry points and the products, then
// the fs_* helpers (codegen/common/fs_helpers.cpp) on Clang's builtins, then fused
// attention, which uses them.

#include "codegen/common/fs_helpers.h"
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
extern "C" int omp_get_max_threads(void);
// C = op(A) @ op(B) for `batch` entries `strideA`/`strideB`/`strideC` elements apart, split
// across the kernels' OpenMP threads (by entry, or by slices of C along its longer side, so
// each thread packs only its share of the wider operand: a layer's weight): the BLAS runs
// single-threaded inside each, so products and kernels share one pool of threads.
static void fs_parallel_gemm(int dtype, int transA, int transB, int64_t batch, int64_t m, int64_t n, int64_t k,
                             const void* a, int64_t lda, int64_t strideA, const void* b, int64_t ldb, int64_t strideB,
                             void* c, int64_t ldc, int64_t strideC) {
    const int64_t size = dtype == 1 ? 8 : 4, threads = omp_get_max_threads();
    const int byColumns = n > m, length = byColumns ? n : m;
    int64_t slices = batch >= threads ? 1 : (m * n * k < (int64_t)1 << 18 ? 1 : (length + 31) / 32);
    if (slices > threads) slices = threads;
    const int64_t span = (length + slices - 1) / slices;
    #pragma omp parallel for collapse(2) if (batch * slices > 1)
    for (int64_t e = 0; e < batch; ++e)
        for (int64_t s = 0; s < slices; ++s) {
            int64_t first = s * span, count = length - first < span ? length - first : span;
            if (count <= 0) continue;
            const char* pa = (const char*)a + e * strideA * size;
            const char* pb = (const char*)b + e * strideB * size;
            char* pc = (char*)c + e * strideC * size;
            if (byColumns) {
                pb += (transB ? first * ldb : first) * size;
                fs_gemm(dtype, transA, transB, m, count, k, 1.0, pa, lda, pb, ldb, 0.0, pc + first * size, ldc);
            } else {
                pa += (transA ? first : first * lda) * size;
                fs_gemm(dtype, transA, transB, count, n, k, 1.0, pa, lda, pb, ldb, 0.0, pc + first * ldc * size, ldc);
            }
        }
}
// A convolution over NCHW or NHWC data (ops/convolution_kernel.h; geometry: 18 numbers).
extern "C" void fs_convolution(int dtype, const int64_t* geometry, const void* x, const void* w, const void* bias, void* y);
// Profiler spans around each step: begin returns null at once when nothing records.
extern "C" void* fs_trace_begin(int step, int nbuffers, void* const* buffers);
extern "C" void fs_trace_end(void* span);

#define FS_INLINE static inline __attribute__((always_inline))
#define FS_MATH(f, S) __builtin_##f##S
// exp(r) for |r| <= ln(2)/2: 1 + r + r^2 P(r), P of degree 4 fitted (minimax) on that range;
// as exact as Cephes's degree-5 P, one multiply-add less (softmax rows 2-6% faster).
FS_INLINE float fs_exp_reduced(float r) {
    float p = 1.37516204e-3f;
    p = p * r + 8.36891588e-3f;
    p = p * r + 4.16695289e-2f;
    p = p * r + 1.66665182e-1f;
    p = p * r + 4.99999881e-1f;
    p = p * r * r + r + 1.0f;
    return p;
}
// exp of a float, inline so that it vectorises at the loop's width (glibc's 16-lane expf
// took 0.88 ns per element on one core, this 0.47). exp(x) = 2^n e^r, n = round(x / ln 2):
// Cody-Waite reduction with ln 2 in two parts, fs_exp_reduced, 2^n as two factors so
// that results below FLT_MIN come out denormal. Within 1.03 ulp of the exact value on every
// float (bench/scripts/check_exp.sh checks every one), as glibc's. The clamps keep n in range;
// a NaN passes them.
FS_INLINE float fs_exp(float x) {
    const float c = x > 89.0f ? 89.0f : x < -104.0f ? -104.0f : x;
    const float shifter = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer in the low bits
    const float t = c * 1.44269504088896341f + shifter, n = t - shifter;
    const int32_t k = __builtin_bit_cast(int32_t, t) - 0x4B400000, k1 = k >> 1, k2 = k - k1;
    const float r = (c - n * 0.693359375f) - n * -2.12194440e-4f;
    return fs_exp_reduced(r) * __builtin_bit_cast(float, (k1 + 127) << 23) * __builtin_bit_cast(float, (k2 + 127) << 23);
}
// fs_exp of x <= 0 (or NaN; a row minus its max: codegen/common/row_max_exps.h), bit for bit
// (bench/scripts/check_exp.sh): no upper clamp, and 2^n as one factor 2^(n+64), exact,
// times 2^-64, which rounds once where fs_exp's second factor does. softmax of 4096x4096
// took 4-7% less time with it in a standalone loop.
FS_INLINE float fs_exp_nonpositive(float x) {
    const float c = x < -104.0f ? -104.0f : x;
    const float shifter = 12582912.0f;
    const float t = c * 1.44269504088896341f + shifter, n = t - shifter;
    const int32_t k = __builtin_bit_cast(int32_t, t) - (0x4B400000 - 127 - 64);
    const float r = (c - n * 0.693359375f) - n * -2.12194440e-4f;
    return fs_exp_reduced(r) * __builtin_bit_cast(float, k << 23) * 0x1p-64f;
}
// fs_exp of x <= 0 (or NaN) whose result a sum holding exp(0) = 1 adds up (log_softmax's
// row sum; codegen/common/row_max_exps.h): no upper clamp, and 2^n as one
// factor, so x below -87 (where exp leaves the normal floats) gives exp(-87), 1.6e-38, which
// adds nothing to such a sum. Equal to fs_exp, bit for bit, on every float in [-87, 0]
// (bench/scripts/check_exp.sh); log_softmax of 4096x4096 took 4-6% less time with it in a standalone loop.
FS_INLINE float fs_exp_summand(float x) {
    const float c = x < -87.0f ? -87.0f : x;
    const float shifter = 12582912.0f;
    const float t = c * 1.44269504088896341f + shifter, n = t - shifter;
    const int32_t k = __builtin_bit_cast(int32_t, t) - 0x4B400000;
    const float r = (c - n * 0.693359375f) - n * -2.12194440e-4f;
    return fs_exp_reduced(r) * __builtin_bit_cast(float, (k + 127) << 23);
}
// Below -746 exp of a double is exactly 0. Those lanes (a causal mask's -inf) would take
// the vector libm's slow scalar path, so they compute exp(0) and select 0.
FS_INLINE double fs_exp(double x) {
    const bool zero = x < -746.0;
    const double e = __builtin_exp(zero ? 0.0 : x);
    return zero ? 0.0 : e;
}
FS_INLINE double fs_exp_nonpositive(double x) { return fs_exp(x); }
FS_INLINE double fs_exp_summand(double x) { return fs_exp(x); }
// Set when integer division by zero happened; call() returns it and the runtime raises
// ZeroDivisionError as eager does. (Zero-initialised: no static initialiser runs.)
static int fs_status;
// How many neighbouring outputs a reduction across rows computes together: a tile per
// thread when the row is short, else 1024 (4 KB of each row read in one run, which the
// prefetchers follow better than 1 KB runs: a column sum of 4096x4096 took 1.6 ms in tiles
// of 1024, 2.3 ms in tiles of 256). A multiple of 64 (whole cache lines), at least 64.
FS_INLINE int64_t fs_column_tile(int64_t n) {
    const int64_t threads = omp_get_max_threads(), share = ((n + threads - 1) / threads + 63) / 64 * 64;
    return share < 64 ? 64 : share > 1024 ? 1024 : share;
}
// Asks the caches for `bytes` of memory from `p` on, a line at a time, to read or to write
// (a prefetch never faults, so `p` may be past a buffer's end). See rowPrefetches in
// cpp_kernel.cpp. Reads stop at L2 (prefetcht1): L1 holds the row being computed and its
// output, and softmax and log_softmax of 4096x4096 ran 1-4% faster so (bench/README.md).
FS_INLINE void fs_prefetch(const void* p, int64_t bytes) {
    for (int64_t b = 0; b < bytes; b += 64) __builtin_prefetch((const char*)p + b, 0, 2);
}
FS_INLINE void fs_prefetch_write(void* p, int64_t bytes) {
    for (int64_t b = 0; b < bytes; b += 64) __builtin_prefetch((char*)p + b, 1);
}
// A floating value's bits as an integer that orders as the values do, a NaN above every
// value for a maximum (below for a minimum), both zeros 0: a NaN-propagating max or min
// over a row becomes an integer one, which the vectoriser takes as a reduction (the float
// compares and selects of fs_maximum it does not). fs_from_order_key turns the key back.
FS_INLINE int32_t fs_order_key(float x, bool forMax) {
    const int32_t b = __builtin_bit_cast(int32_t, x);
    return x != x ? (forMax ? 2147483647 : -2147483647 - 1) : x == 0 ? 0 : b ^ ((b >> 31) & 2147483647);
}
FS_INLINE int64_t fs_order_key(double x, bool forMax) {
    const int64_t b = __builtin_bit_cast(int64_t, x);
    return x != x ? (forMax ? 9223372036854775807L : -9223372036854775807L - 1) : x == 0 ? 0 : b ^ ((b >> 63) & 9223372036854775807L);
}
FS_INLINE float fs_from_order_key(int32_t k, float) {
    return k == 2147483647 || k == -2147483647 - 1 ? __builtin_nanf("") : __builtin_bit_cast(float, k ^ ((k >> 31) & 2147483647));
}
FS_INLINE double fs_from_order_key(int64_t k, double) {
    return k == 9223372036854775807L || k == -9223372036854775807L - 1 ? __builtin_nan("")
                                                                       : __builtin_bit_cast(double, k ^ ((k >> 63) & 9223372036854775807L));
}
// argmax and argmin of floats over a row shorter than 2^31: a value's order key above its
// index, the index complemented for argmax, so that one int64 max (argmin: min) picks the
// extreme value and, of equal ones (NaN counting as the extreme), the first.
FS_INLINE int64_t fs_arg_key(float x, int64_t i, bool forMax) {
    return (int64_t)fs_order_key(x, forMax) * 4294967296L + (forMax ? 4294967295L - i : i);
}
FS_INLINE int64_t fs_arg_index(int64_t key, bool forMax) {
    const int64_t low = key & 4294967295L;
    return forMax ? 4294967295L - low : low;
}
)PRELUDE" + fsHelpers() + R"ATTENTION(
// softmax(q @ k^T * scale) @ v over [B, H, L, D] q, [B, H, S, D] k and [B, H, S, Dv] v, each
// read through its strides (the head dim's is 1: q, k and v may be views of one qkv
// buffer) and out written through its own (PyTorch's: those of q), as PyTorch's CPU flash
// attention computes it. Geometry: B, H, L, S, D, Dv, is_causal, the scale's bits, then the
// B, H and row strides of q, k, v and out. Blocks of 64 query rows run in parallel; each
// takes the keys its rows see in blocks of up to 512 (under is_causal, key j is seen by
// rows i >= j, so keys past the block's diagonal are never computed): one product for the
// block's scores, a running maximum and sum per row across key blocks, one product into
// the rows' accumulators. So each exp is computed once and the scores stay in cache.
enum { fs_attention_row_block = 64, fs_attention_key_block = 512 };
// `scratch`: the block's scores (64 x 512) and accumulators (64 x Dv), one per thread.
template <class T>
static void fs_attention_rows(int dtype, const int64_t* g, const T* q, const T* k, const T* v, T* out, int64_t bh, int64_t r0,
                              T* scratch) {
    enum { kRows = fs_attention_row_block, kKeys = fs_attention_key_block };
    const int64_t L = g[2], S = g[3], D = g[4], Dv = g[5], causal = g[6], rows = L - r0 < kRows ? L - r0 : kRows;
    double scale;
    __builtin_memcpy(&scale, &g[7], sizeof scale);
    const int64_t b = bh / g[1], h = bh % g[1];
    const int64_t ldq = g[10], ldk = g[13], ldv = g[16], ldo = g[19];
    const T* qp = q + b * g[8] + h * g[9] + r0 * ldq;
    const T* kp = k + b * g[11] + h * g[12];
    const T* vp = v + b * g[14] + h * g[15];
    T* op = out + b * g[17] + h * g[18] + r0 * ldo;
    const int64_t end = causal && r0 + rows < S ? r0 + rows : S;
    if (end == 0) {  // no keys: zeros, as the eager kernel's empty product gives
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t d = 0; d < Dv; ++d) op[i * ldo + d] = T(0);
        return;
    }
    T* p = scratch;
    T* acc = scratch + kRows * kKeys;
    T top[kRows], sum[kRows];
    for (int64_t i = 0; i < rows; ++i) top[i] = -__builtin_inf(), sum[i] = 0;
    for (int64_t c0 = 0; c0 < end; c0 += kKeys) {
        const int64_t cols = end - c0 < kKeys ? end - c0 : kKeys;
        fs_gemm(dtype, 0, 1, rows, cols, D, scale, qp, ldq, kp + c0 * ldk, ldk, 0.0, p, kKeys);
        for (int64_t i = 0; i < rows; ++i) {
            T* row = p + i * kKeys;
            int64_t seen = causal ? r0 + i + 1 - c0 : cols;
            seen = seen < 0 ? 0 : seen > cols ? cols : seen;
            T high = top[i], lanes[16];  // sixteen running maxima, so the loop vectorises
            for (int l = 0; l < 16; ++l) lanes[l] = high;
            int64_t m = 0;
            for (; m + 16 <= seen; m += 16)
                for (int l = 0; l < 16; ++l) lanes[l] = row[m + l] > lanes[l] ? row[m + l] : lanes[l];
            for (; m < seen; ++m) high = row[m] > high ? row[m] : high;
            for (int l = 0; l < 16; ++l) high = lanes[l] > high ? lanes[l] : high;
            T total = 0;
            #pragma omp simd reduction(+ : total)
            for (int64_t j = 0; j < cols; ++j) {
                T e = j < seen ? fs_exp(row[j] - high) : T(0);
                row[j] = e;
                total += e;
            }
            const T carry = top[i] == high ? T(1) : fs_exp(top[i] - high);  // rescales what earlier blocks added
            sum[i] = sum[i] * carry + total;
            top[i] = high;
            if (c0 > 0 && carry != T(1))
                for (int64_t d = 0; d < Dv; ++d) acc[i * Dv + d] *= carry;
        }
        fs_gemm(dtype, 0, 0, rows, Dv, cols, 1.0, p, kKeys, vp + c0 * ldv, ldv, c0 > 0 ? 1.0 : 0.0, acc, Dv);
    }
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t d = 0; d < Dv; ++d) op[i * ldo + d] = acc[i * Dv + d] / sum[i];
}
static void fs_attention(int dtype, const int64_t* g, const void* q, const void* k, const void* v, void* out) {
    const int64_t heads = g[0] * g[1], blocks = (g[2] + fs_attention_row_block - 1) / fs_attention_row_block;
    const int64_t scratch = fs_attention_row_block * (fs_attention_key_block + g[5]) * (dtype == 1 ? 8 : 4);
    #pragma omp parallel
    {
        void* work = fs_alloc(scratch);
        #pragma omp for collapse(2) schedule(dynamic)
        for (int64_t bh = 0; bh < heads; ++bh)
            for (int64_t b = 0; b < blocks; ++b) {
                const int64_t r0 = b * fs_attention_row_block;
                if (dtype == 1) fs_attention_rows(dtype, g, (const double*)q, (const double*)k, (const double*)v, (double*)out, bh, r0, (double*)work);
                else fs_attention_rows(dtype, g, (const float*)q, (const float*)k, (const float*)v, (float*)out, bh, r0, (float*)work);
            }
        fs_free(work, scratch);
    }
}
)ATTENTION";
    return prelude;
}

}  // namespace fusescope
