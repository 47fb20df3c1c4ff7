#include "runtime/cuda_blas.h"

#include <fmt/format.h>

#include "toolchain/cuda/shared_library.h"

namespace fusescope {

namespace {

using Handle = void*;
using SgemmBatched = int (*)(Handle, int, int, int, int, int, const float*, const float*, int, long long, const float*, int,
                             long long, const float*, float*, int, long long, int);
using DgemmBatched = int (*)(Handle, int, int, int, int, int, const double*, const double*, int, long long, const double*,
                             int, long long, const double*, double*, int, long long, int);
constexpr int kOpN = 0, kOpT = 1;

struct Cublas {
    Handle handle = nullptr;
    SgemmBatched sgemm = nullptr;
    DgemmBatched dgemm = nullptr;

    Cublas() {
        static const SharedLibrary library(cudaLibraryCandidates({"libcublas.so.13", "libcublas.so.12", "libcublas.so"}));
        if (!library.loaded()) throw Error(fmt::format("cuBLAS not found ({}): matrix products cannot run on the GPU", library.error()));
        auto create = library.function<int (*)(Handle*)>("cublasCreate_v2");
        sgemm = library.function<SgemmBatched>("cublasSgemmStridedBatched");
        dgemm = library.function<DgemmBatched>("cublasDgemmStridedBatched");
        if (!create || !sgemm || !dgemm) throw Error("cuBLAS (" + library.path() + ") lacks cublasCreate_v2 or the gemm functions");
        cudaApi();  // the primary context current before cuBLAS makes its handle
        if (int rc = create(&handle); rc != 0) throw Error(fmt::format("cublasCreate failed with cuBLAS status {}", rc));
    }
};

const Cublas& cublas() {
    static const Cublas* library = new Cublas;  // never destroyed: the driver may be gone at exit
    return *library;
}

}  // namespace

void loadCublas() { cublas(); }

void cudaGemm(DType dtype, int64_t batch, int64_t m, int64_t n, int64_t k, const CudaGemmOperand& a,
              const CudaGemmOperand& b, CudaDevicePtr c) {
    if (batch == 0 || m == 0 || n == 0) return;
    const Cublas& blas = cublas();
    // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: swap the operands.
    int opB = b.transpose ? kOpT : kOpN, opA = a.transpose ? kOpT : kOpN;
    int lda = static_cast<int>(std::max<int64_t>(a.leadingDim, 1)), ldb = static_cast<int>(std::max<int64_t>(b.leadingDim, 1));
    int status;
    if (dtype == DType::Float64) {
        const double one = 1, zero = 0;
        status = blas.dgemm(blas.handle, opB, opA, int(n), int(m), int(k), &one, reinterpret_cast<const double*>(b.data), ldb,
                            b.batchStride, reinterpret_cast<const double*>(a.data), lda, a.batchStride, &zero,
                            reinterpret_cast<double*>(c), int(n), m * n, int(batch));
    } else {
        const float one = 1, zero = 0;
        status = blas.sgemm(blas.handle, opB, opA, int(n), int(m), int(k), &one, reinterpret_cast<const float*>(b.data), ldb,
                            b.batchStride, reinterpret_cast<const float*>(a.data), lda, a.batchStride, &zero,
                            reinterpret_cast<float*>(c), int(n), m * n, int(batch));
    }
    if (status != 0) throw Error(fmt::format("cuBLAS gemm failed with status {} ({}x{}x{}, batch {})", status, m, n, k, batch));
}

}  // namespace fusescope
