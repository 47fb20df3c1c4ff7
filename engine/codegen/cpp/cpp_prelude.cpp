// The prelude of every generated C++ module: runtime entry points, then the fs_* helpers
// (codegen/common/fs_helpers.cpp) on Clang's builtins.

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
// A convolution over contiguous NCHW data (ops/convolution_kernel.h; geometry: 16 numbers).
extern "C" void fs_convolution(int dtype, const int64_t* geometry, const void* x, const void* w, const void* bias, void* y);
// Profiler spans around each step: begin returns null at once when nothing records.
extern "C" void* fs_trace_begin(int step, int nbuffers, void* const* buffers);
extern "C" void fs_trace_end(void* span);

#define FS_INLINE static inline __attribute__((always_inline))
#define FS_MATH(f, S) __builtin_##f##S
// Set when integer division by zero happened; call() returns it and the runtime raises
// ZeroDivisionError as eager does. (Zero-initialised: no static initialiser runs.)
static int fs_status;
)PRELUDE" + fsHelpers();
    return prelude;
}

}  // namespace fusescope
