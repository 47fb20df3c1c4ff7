#pragma once
// Matrix products on the GPU through cuBLAS, opened at run time (libcublas.so.13 or .12)
// like the driver, so the engine links no CUDA library.

#include <cstdint>

#include "core/dtype.h"
#include "runtime/cuda_driver.h"

namespace fusescope {

// A row-major operand: base address, whether BLAS reads the transpose of its row-major
// storage, its leading dimension and the distance between batch entries (elements).
struct CudaGemmOperand {
    CudaDevicePtr data = 0;
    bool transpose = false;
    int64_t leadingDim = 0;
    int64_t batchStride = 0;
};

// Opens cuBLAS and makes its handle: slow the first time (the library loads its kernels),
// so a runner does it when it loads a plan with products, and the first call's trace shows
// only the product. Throws when cuBLAS cannot be found.
void loadCublas();

// C[b] = A[b] @ B[b] for each of `batch` entries, C row-major m x n contiguous, on the
// default stream. float32 (full precision, no TF32) or float64.
void cudaGemm(DType dtype, int64_t batch, int64_t m, int64_t n, int64_t k, const CudaGemmOperand& a,
              const CudaGemmOperand& b, CudaDevicePtr c);

}  // namespace fusescope
