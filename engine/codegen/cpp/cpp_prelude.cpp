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
