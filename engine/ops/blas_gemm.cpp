#include "ops/blas_gemm.h"

#include <type_traits>

#ifdef FUSESCOPE_HAVE_BLAS
#include <cblas.h>
#endif
#ifdef FUSESCOPE_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

namespace fusescope {

namespace {

// C = beta * C over an m x n block with leading dimension ldc; beta 0 writes zeros (as BLAS,
// whatever C held).
template <class T>
void scaleRows(T* c, int64_t m, int64_t n, int64_t ldc, T beta) {
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = beta == T(0) ? T(0) : beta * c[i * ldc + j];
}

}  // namespace

bool haveBlas() {
#ifdef FUSESCOPE_HAVE_BLAS
    return true;
#else
    return false;
#endif
}

void blasGemm(int dtype, int transA, int transB, int64_t m, int64_t n, int64_t k, double alpha, const void* a, int64_t lda,
              const void* b, int64_t ldb, double beta, void* c, int64_t ldc) {
    if (m <= 0 || n <= 0) return;
    if (k <= 0) {  // nothing to sum: C = beta * C (oneDNN and OpenBLAS refuse a leading dimension of 0)
        if (dtype == 1) scaleRows(static_cast<double*>(c), m, n, ldc, beta);
        else scaleRows(static_cast<float*>(c), m, n, ldc, static_cast<float>(beta));
        return;
    }
#ifdef FUSESCOPE_HAVE_DNNL
    // oneDNN's sgemm (row-major, like PyTorch's MKL path) is 10-20% faster than OpenBLAS's
    // on the products of transformer layers; inside the kernels' parallel region it runs on
    // the calling thread only.
    if (dtype == 0) {
        dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, static_cast<float>(alpha), static_cast<const float*>(a), lda,
                   static_cast<const float*>(b), ldb, static_cast<float>(beta), static_cast<float*>(c), ldc);
        return;
    }
#endif
#ifdef FUSESCOPE_HAVE_BLAS
    // One thread per call: compiled graphs split their products across their own OpenMP
    // threads (fs_parallel_gemm); a second pool of BLAS threads would fight them for the
    // cores (each spins after its work), which made a GPT's compiled forward 4x slower.
    static const bool single = (openblas_set_num_threads(1), true);
    (void)single;
    auto ta = transA ? CblasTrans : CblasNoTrans;
    auto tb = transB ? CblasTrans : CblasNoTrans;
    if (dtype == 1) {
        cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, alpha, static_cast<const double*>(a), lda, static_cast<const double*>(b),
                    ldb, beta, static_cast<double*>(c), ldc);
    } else {
        cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, static_cast<float>(alpha), static_cast<const float*>(a), lda,
                    static_cast<const float*>(b), ldb, static_cast<float>(beta), static_cast<float*>(c), ldc);
    }
#else
    // Without OpenBLAS: a plain triple loop (correct, not fast).
    auto run = [&](auto* cp, const auto* ap, const auto* bp) {
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                double acc = 0;
                for (int64_t p = 0; p < k; ++p)
                    acc += double(transA ? ap[p * lda + i] : ap[i * lda + p]) * double(transB ? bp[j * ldb + p] : bp[p * ldb + j]);
                cp[i * ldc + j] = static_cast<std::remove_reference_t<decltype(cp[0])>>(alpha * acc + (beta != 0 ? beta * cp[i * ldc + j] : 0));
            }
    };
    if (dtype == 1) run(static_cast<double*>(c), static_cast<const double*>(a), static_cast<const double*>(b));
    else run(static_cast<float*>(c), static_cast<const float*>(a), static_cast<const float*>(b));
#endif
}

}  // namespace fusescope
