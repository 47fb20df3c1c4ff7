// The prelude of every generated CUDA module: the fs_* helpers of the C++ prelude
// (codegen/common/fs_helpers.cpp) as device functions on CUDA's math, so loop-body
// statements read the same in both, and the block reductions the reduction kernels end
// with. NVRTC compiles it without any header.

#include "codegen/common/fs_helpers.h"
#include "codegen/cuda/cuda_codegen.h"

namespace fusescope {

const std::string& cudaPrelude() {
    static const std::string prelude = R"PRELUDE(// Fusescope generated code (CUDA C++17, compiled by NVRTC)
typedef long int64_t;
typedef int int32_t;
// The spellings of NaN and infinity the shared statement writer uses (Clang builtins).
#define __builtin_nanf(s) __int_as_float(0x7fc00000)
#define __builtin_nan(s) __longlong_as_double(0x7ff8000000000000LL)
#define __builtin_inff() __int_as_float(0x7f800000)
#define __builtin_inf() __longlong_as_double(0x7ff0000000000000LL)
#define FS_INLINE static __device__ __forceinline__
#define FS_MATH(f, S) f##S
FS_INLINE float fs_exp(float x) { return expf(x); }
FS_INLINE double fs_exp(double x) { return exp(x); }
template <class T> FS_INLINE T fs_exp_nonpositive(T x) { return fs_exp(x); }
template <class T> FS_INLINE T fs_exp_summand(T x) { return fs_exp(x); }
// Set when integer division by zero happened; the runtime reads it after the launches and
// raises ZeroDivisionError as eager does.
__device__ int fs_status;
// Blocks of the current split-row kernel that have stored their partial values
// (fs_last_block); kernels run one after another on one stream, so they share it.
__device__ unsigned fs_done;
)PRELUDE" + fsHelpers() + R"PRELUDE(
// W elements of a pointwise kernel's buffer moved as one access (16 bytes for its widest
// buffer): the alignment lets the compiler use vector loads and stores.
template <class T, int W> struct alignas(sizeof(T) * W) fs_vec { T v[W]; };
template <class T, int W> FS_INLINE bool fs_vec_aligned(const T* p) { return ((unsigned long long)p & (sizeof(T) * W - 1)) == 0; }

// A run of W contiguous elements of a persistent row, between memory at `p` and a thread's
// registers `r`: one vector access when `p` is aligned to it, else W accesses.
template <int W, class T> FS_INLINE void fs_load_run(T* r, const T* p) {
    if (fs_vec_aligned<T, W>(p)) {
        const fs_vec<T, W> v = *reinterpret_cast<const fs_vec<T, W>*>(p);
        #pragma unroll
        for (int i = 0; i < W; ++i) r[i] = v.v[i];
    } else {
        #pragma unroll
        for (int i = 0; i < W; ++i) r[i] = p[i];
    }
}
template <int W, class T> FS_INLINE void fs_store_run(T* p, const T* r) {
    if (fs_vec_aligned<T, W>(p)) {
        fs_vec<T, W> v;
        #pragma unroll
        for (int i = 0; i < W; ++i) v.v[i] = r[i];
        *reinterpret_cast<fs_vec<T, W>*>(p) = v;
    } else {
        #pragma unroll
        for (int i = 0; i < W; ++i) p[i] = r[i];
    }
}

// The steps of each reduction, for the block reductions.
struct fs_sum { template <class T> __device__ T operator()(T a, T b) const { return a + b; } };
struct fs_prod { template <class T> __device__ T operator()(T a, T b) const { return a * b; } };
struct fs_max { template <class T> __device__ T operator()(T a, T b) const { return fs_maximum(a, b); } };
struct fs_min { template <class T> __device__ T operator()(T a, T b) const { return fs_minimum(a, b); } };
struct fs_any { template <class T> __device__ T operator()(T a, T b) const { return a || b; } };
struct fs_all { template <class T> __device__ T operator()(T a, T b) const { return a && b; } };

// Combines every thread's partial value of a block (blockDim.x a multiple of 32, at most
// 1024): within each warp by shuffles, then the warps' results, which every warp reduces
// again so that every thread returns the total.
template <class T, class Op> static __device__ T fs_block_reduce(T v, T init, Op op) {
    __shared__ T partial[32];
    for (int o = 16; o > 0; o >>= 1) v = op(v, (T)__shfl_down_sync(0xffffffffu, v, o));
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();  // a previous reduction's threads may still read `partial`
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    v = lane < (int)(blockDim.x >> 5) ? partial[lane] : init;
    for (int o = 16; o > 0; o >>= 1) v = op(v, (T)__shfl_down_sync(0xffffffffu, v, o));
    return (T)__shfl_sync(0xffffffffu, v, 0);
}

// After each block of a split row stored its partial value: whether this block is the last
// to finish (it then combines the partials; the others return). The last block resets the
// counter for the next launch.
static __device__ bool fs_last_block(unsigned* done) {
    __shared__ bool last;
    __threadfence();  // this block's partial is visible to the block that combines
    __syncthreads();
    if (threadIdx.x == 0) {
        last = atomicAdd(done, 1u) == gridDim.x - 1;
        if (last) *done = 0;
    }
    __syncthreads();
    if (last) __threadfence();  // then read the other blocks' partials
    return last;
}

// argmax / argmin: the first index of the extreme value, a NaN counting as the extreme.
template <class T> FS_INLINE bool fs_arg_better(T v, int64_t i, T best, int64_t bestIndex, bool isMax) {
    if (fs_isnan(best)) return fs_isnan(v) && i < bestIndex;
    if (fs_isnan(v)) return true;
    if (v == best) return i < bestIndex;
    return isMax ? v > best : v < best;
}
template <class T> static __device__ int64_t fs_block_arg_reduce(T best, int64_t index, bool isMax) {
    __shared__ T partialValue[32];
    __shared__ int64_t partialIndex[32];
    for (int o = 16; o > 0; o >>= 1) {
        T v = __shfl_down_sync(0xffffffffu, best, o);
        int64_t i = __shfl_down_sync(0xffffffffu, index, o);
        if (fs_arg_better(v, i, best, index, isMax)) best = v, index = i;
    }
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) partialValue[warp] = best, partialIndex[warp] = index;
    __syncthreads();
    int warps = blockDim.x >> 5;
    best = partialValue[lane < warps ? lane : 0];
    index = partialIndex[lane < warps ? lane : 0];
    for (int o = 16; o > 0; o >>= 1) {
        T v = __shfl_down_sync(0xffffffffu, best, o);
        int64_t i = __shfl_down_sync(0xffffffffu, index, o);
        if (fs_arg_better(v, i, best, index, isMax)) best = v, index = i;
    }
    return __shfl_sync(0xffffffffu, index, 0);
}
)PRELUDE";
    return prelude;
}

}  // namespace fusescope
