#pragma once
// Row-major matrix products through OpenBLAS when the build has it (PyTorch's CPU products
// go to a BLAS the same way), else a plain loop: the compiled graphs' extern kernels and
// eager float products both come here.

#include <cstdint>

namespace fusescope {

// Whether blasGemm runs OpenBLAS (else a loop: correct, not fast).
bool haveBlas();

// C = alpha * op(A) @ op(B) + beta * C, row-major; dtype 0 float32, 1 float64.
void blasGemm(int dtype, int transA, int transB, int64_t m, int64_t n, int64_t k, double alpha, const void* a, int64_t lda,
              const void* b, int64_t ldb, double beta, void* c, int64_t ldc);

}  // namespace fusescope
