// A re-implementation of the summation order of ATen's CPU sum kernel (cascade_sum in
// aten/src/ATen/native/cpu/SumKernel.cpp), driven the way TensorIterator drives it:
//
//  * the iteration dims are ordered as TensorIterator's reorder_dimensions orders a
//    reduction (reduced dims innermost, then by input strides) and coalesced the same way;
//  * the two innermost dims form the 2-D loop the kernel sees, outer dims call it again,
//    and each call adds its partial sums into the (zero-filled) output;
//  * inside, multi_row_sum/row_sum sum in "levels" (chunks of 2^level_power elements summed
//    and pushed up four levels) with four interleaved accumulators (ilp_factor 4), and the
//    vectorised inner / outer paths keep one accumulator per SIMD lane.
//
// Vector width: PyTorch's sum kernel is registered with REGISTER_DISPATCH, which leaves the
// AVX512 slot empty (those reductions were slower with AVX512), so even where
// torch.backends.cpu.get_cpu_capability() is "AVX512" (as on the reference machine) sum runs
// the AVX2 build: Vectorized<float> has 8 lanes, Vectorized<double> 4 and
// Vectorized<Half/BFloat16> 16. We use those widths (verified bit for bit against PyTorch
// 2.15). Vector adds are plain IEEE lane-wise adds: our lanes are GCC vectors of those widths
// (ops/cascade_sum_kernel.inc, built for AVX2 and for any x86-64), the same bits either way.
//
// Not reproduced: PyTorch parallelises reductions over >= 32768 elements across threads
// (at::internal::GRAIN_SIZE); a full reduction of that size then depends on the thread
// count. We always follow the single-threaded order, computing its independent blocks
// across threads (multiRowSum).

#include "ops/cascade_sum.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>

#include "core/cancellation.h"
#include "core/half.h"
#include "core/parallel.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

// Element types: S is the storage type, A the accumulation type, W the lanes of
// Vectorized<A>, VW the lanes of Vectorized<S> (AVX2 widths, see above).
struct F32 {
    using A = float;
    static constexpr int W = 8, VW = 8, size = 4;
    static float load(const char* p) { float v; std::memcpy(&v, p, 4); return v; }
    static void addInto(char* p, float v) { float o = load(p); o += v; std::memcpy(p, &o, 4); }
    static constexpr int outSize = 4;
    static void addOut(char* p, float v) { addInto(p, v); }
};
struct F64 {
    using A = double;
    static constexpr int W = 4, VW = 4, size = 8;
    static double load(const char* p) { double v; std::memcpy(&v, p, 8); return v; }
    static void addInto(char* p, double v) { double o = load(p); o += v; std::memcpy(p, &o, 8); }
    static constexpr int outSize = 8;
    static void addOut(char* p, double v) { addInto(p, v); }
};
template <bool Bf16>
struct F16 {
    using A = float;
    static constexpr int W = 8, VW = 16, size = 2;
    static float toFloat(uint16_t b) { return Bf16 ? bfloat16ToFloat(b) : halfToFloat(b); }
    static uint16_t fromFloat(float f) { return Bf16 ? floatToBfloat16(f) : floatToHalf(f); }
    static float load(const char* p) { uint16_t b; std::memcpy(&b, p, 2); return toFloat(b); }
    // Partial sums of a Half/BFloat16 reduction accumulate into a float buffer, rounded to
    // the 16-bit type once at the end (matches PyTorch where one output gets several 2-D
    // loop calls, e.g. x[:, ::2].sum()).
    static constexpr int outSize = 4;
    static void addOut(char* p, float v) { F32::addOut(p, v); }
};


namespace baseline {
#include "ops/cascade_sum_kernel.inc"
}  // namespace baseline
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FUSESCOPE_SUM_AVX2
#pragma GCC push_options
#pragma GCC target("avx2")
namespace avx2 {
#include "ops/cascade_sum_kernel.inc"
}  // namespace avx2
#pragma GCC pop_options
#endif

// The 2-D loop for this CPU: AVX2's where it has it.
using Loop2d = void (*)(char* out, const char* in, const int64_t* strides, int64_t size0, int64_t size1);
template <class E>
Loop2d loop2dFor() {
#ifdef FUSESCOPE_SUM_AVX2
    static const bool hasAvx2 = __builtin_cpu_supports("avx2");
    if (hasAvx2) return avx2::Kernel<E>::loop2d;
#endif
    return baseline::Kernel<E>::loop2d;
}

struct IterDim {
    int64_t size;
    int64_t outStride;  // bytes; 0 on reduced dims
    int64_t inStride;   // bytes
};

// TensorIterator's reorder_dimensions for a reduction (operands: output, then input).
std::vector<IterDim> reorder(const std::vector<IterDim>& dims) {
    const std::size_t nd = dims.size();
    auto shouldSwap = [&](std::size_t d0, std::size_t d1) -> int {
        for (int arg = 0; arg < 2; ++arg) {
            int64_t s0 = arg == 0 ? dims[d0].outStride : dims[d0].inStride;
            int64_t s1 = arg == 0 ? dims[d1].outStride : dims[d1].inStride;
            if (arg == 0 && ((s0 == 0) != (s1 == 0))) return s1 == 0 ? 1 : -1;
            if (s0 == 0 || s1 == 0) continue;
            if (s0 < s1) return -1;
            if (s0 > s1) return 1;
            if (dims[d0].size > dims[d1].size) return 1;
        }
        return 0;
    };
    std::vector<std::size_t> perm = tensorIteratorDimOrder(nd, shouldSwap);
    std::vector<IterDim> out(nd);
    for (std::size_t i = 0; i < nd; ++i) out[i] = dims[perm[i]];
    return out;
}

// TensorIterator's coalesce_dimensions.
std::vector<IterDim> coalesce(std::vector<IterDim> d) {
    if (d.size() <= 1) return d;
    auto canCoalesce = [&](std::size_t a, std::size_t b) {
        if (d[a].size == 1 || d[b].size == 1) return true;
        return d[a].size * d[a].outStride == d[b].outStride && d[a].size * d[a].inStride == d[b].inStride;
    };
    auto replaceStride = [&](std::size_t a, std::size_t b) {
        d[a].outStride = d[b].outStride;
        d[a].inStride = d[b].inStride;
    };
    std::size_t prev = 0;
    for (std::size_t dim = 1; dim < d.size(); ++dim) {
        if (canCoalesce(prev, dim)) {
            if (d[prev].size == 1) replaceStride(prev, dim);
            d[prev].size *= d[dim].size;
        } else {
            ++prev;
            if (prev != dim) {
                replaceStride(prev, dim);
                d[prev].size = d[dim].size;
            }
        }
    }
    d.resize(prev + 1);
    return d;
}

template <class E>
void run(const Tensor& in, const std::vector<bool>& mask, const Tensor& out) {
    // The output (or, for 16-bit types, a float buffer) starts at zero; each 2-D loop call
    // adds its partial sums into it.
    const std::size_t outNumel = static_cast<std::size_t>(out.numel());
    std::vector<char> buffer;
    char* outBase = bytePtr(out);
    if (E::outSize != E::size) {
        buffer.assign(outNumel * E::outSize, 0);
        outBase = buffer.data();
    } else {
        std::memset(outBase, 0, outNumel * E::size);
    }
    auto finish = [&] {
        if (E::outSize == E::size) return;
        for (std::size_t i = 0; i < outNumel; ++i) {
            float v;
            std::memcpy(&v, buffer.data() + i * 4, 4);
            storeDouble(bytePtr(out) + i * E::size, out.dtype(), v);
        }
    };
    if (in.numel() == 0) return finish();
    const std::size_t nd = in.sizes().size();
    // Output strides over the kept dims (out is contiguous).
    std::vector<int64_t> outStride(nd, 0);
    int64_t next = E::outSize;
    for (std::size_t i = nd; i-- > 0;) {
        if (mask[i]) continue;
        outStride[i] = next;
        next *= in.sizes()[i];
    }
    std::vector<IterDim> dims(nd);
    for (std::size_t i = 0; i < nd; ++i) dims[i] = {in.sizes()[i], outStride[i], in.strides()[i] * E::size};
    dims = coalesce(reorder(dims));
    while (dims.size() < 2) dims.push_back({1, 0, 0});
    const int64_t strides[4] = {dims[0].outStride, dims[0].inStride, dims[1].outStride, dims[1].inStride};
    // Outer dims: dim 2 fastest, as TensorIterator's DimCounter.
    std::vector<int64_t> idx(dims.size(), 0);
    const char* inBase = bytePtr(in);
    const Loop2d loop2d = loop2dFor<E>();
    for (;;) {
        int64_t outOff = 0, inOff = 0;
        for (std::size_t d = 2; d < dims.size(); ++d) {
            outOff += idx[d] * dims[d].outStride;
            inOff += idx[d] * dims[d].inStride;
        }
        loop2d(outBase + outOff, inBase + inOff, strides, dims[0].size, dims[1].size);
        std::size_t d = 2;
        for (; d < dims.size(); ++d) {
            if (++idx[d] < dims[d].size) break;
            idx[d] = 0;
        }
        if (d == dims.size()) return finish();
    }
}

}  // namespace

void cascadeSum(const Tensor& in, const std::vector<bool>& mask, const Tensor& out) {
    switch (in.dtype()) {
        case DType::Float32: run<F32>(in, mask, out); break;
        case DType::Float64: run<F64>(in, mask, out); break;
        case DType::Float16: run<F16<false>>(in, mask, out); break;
        case DType::BFloat16: run<F16<true>>(in, mask, out); break;
        default: break;
    }
}

}  // namespace fusescope
