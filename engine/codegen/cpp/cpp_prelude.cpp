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
// Set when integer division by zero happened; call() returns it and the runtime raises
// ZeroDivisionError as eager does. (Zero-initialised: no static initialiser runs.)
static int fs_status;
)PRELUDE" + fsHelpers() + R"ATTENTION(
// softmax(q @ k^T * scale) @ v over contiguous [B, H, L, D] q, [B, H, S, D] k and
// [B, H, S, Dv] v (geometry: B, H, L, S, D, Dv, is_causal, the scale's bits), as PyTorch's
// CPU flash attention computes it: blocks of 64 query rows run in parallel, each walks the
// blocks of 64 keys its rows see (under is_causal, key j is seen by rows i >= j, so blocks
// past the diagonal are never computed) with a running maximum and sum per row, so each
// exp is computed once and the scores never leave the cache.
template <class T>
static void fs_attention_rows(int dtype, const int64_t* g, const T* q, const T* k, const T* v, T* out, int64_t bh, int64_t r0) {
    const int64_t L = g[2], S = g[3], D = g[4], Dv = g[5], causal = g[6], rows = L - r0 < 64 ? L - r0 : 64;
    double scale;
    __builtin_memcpy(&scale, &g[7], sizeof scale);
    const T* qp = q + (bh * L + r0) * D;
    const T* kp = k + bh * S * D;
    const T* vp = v + bh * S * Dv;
    T* acc = (T*)fs_alloc(rows * Dv * (int64_t)sizeof(T));
    T* p = (T*)fs_alloc(64 * 64 * (int64_t)sizeof(T));
    T top[64], sum[64];
    for (int64_t i = 0; i < rows; ++i) top[i] = -__builtin_inf(), sum[i] = 0;
    for (int64_t i = 0; i < rows * Dv; ++i) acc[i] = 0;
    const int64_t end = causal && r0 + rows < S ? r0 + rows : S;
    for (int64_t c0 = 0; c0 < end; c0 += 64) {
        const int64_t cols = end - c0 < 64 ? end - c0 : 64;
        fs_gemm(dtype, 0, 1, rows, cols, D, scale, qp, D, kp + c0 * D, D, 0.0, p, 64);
        for (int64_t i = 0; i < rows; ++i) {
            T* row = p + i * 64;
            int64_t seen = causal ? r0 + i + 1 - c0 : cols;
            seen = seen < 0 ? 0 : seen > cols ? cols : seen;
            T high = top[i];
            for (int64_t j = 0; j < seen; ++j) high = row[j] > high ? row[j] : high;
            T total = 0;
            for (int64_t j = 0; j < cols; ++j) {
                T e = j < seen ? fs_exp(row[j] - high) : T(0);
                row[j] = e;
                total += e;
            }
            const T carry = top[i] == high ? T(1) : fs_exp(top[i] - high);  // rescales what earlier blocks added
            sum[i] = sum[i] * carry + total;
            top[i] = high;
            if (carry != T(1))
                for (int64_t d = 0; d < Dv; ++d) acc[i * Dv + d] *= carry;
        }
        fs_gemm(dtype, 0, 0, rows, Dv, cols, 1.0, p, 64, vp + c0 * Dv, Dv, 1.0, acc, Dv);
    }
    T* op = out + (bh * L + r0) * Dv;
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t d = 0; d < Dv; ++d) op[i * Dv + d] = acc[i * Dv + d] / sum[i];
    fs_free(p, 64 * 64 * (int64_t)sizeof(T));
    fs_free(acc, rows * Dv * (int64_t)sizeof(T));
}
static void fs_attention(int dtype, const int64_t* g, const void* q, const void* k, const void* v, void* out) {
    const int64_t heads = g[0] * g[1], blocks = (g[2] + 63) / 64;
    #pragma omp parallel for collapse(2) schedule(dynamic)
    for (int64_t bh = 0; bh < heads; ++bh)
        for (int64_t b = 0; b < blocks; ++b) {
            if (dtype == 1) fs_attention_rows(dtype, g, (const double*)q, (const double*)k, (const double*)v, (double*)out, bh, b * 64);
            else fs_attention_rows(dtype, g, (const float*)q, (const float*)k, (const float*)v, (float*)out, bh, b * 64);
        }
}
)ATTENTION";
    return prelude;
}

}  // namespace fusescope
