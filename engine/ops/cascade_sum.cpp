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
// 2.15). Vector adds are plain IEEE lane-wise adds, so summing lane arrays in scalar code
// reproduces them exactly.
//
// Not reproduced: PyTorch parallelises reductions over >= 32768 elements across threads
// (at::internal::GRAIN_SIZE); a full reduction of that size then depends on the thread
// count. We always follow the single-threaded order, computing its independent blocks
// across threads (multiRowSum).

#include "ops/cascade_sum.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/cancellation.h"
#include "core/half.h"
#include "core/parallel.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

int64_t ceilLog2(int64_t x) {
    if (x <= 2) return 1;
    return 64 - __builtin_clzll(static_cast<unsigned long long>(x - 1));
}

// A SIMD register's worth of accumulators.
template <class A, int W>
struct Lanes {
    std::array<A, W> v{};
    Lanes& operator+=(const Lanes& o) {
        for (int i = 0; i < W; ++i) v[i] += o.v[i];
        return *this;
    }
};

// ATen's multi_row_sum: sums `size` rows of n columns at once. Every 2^(3 levelPower) rows
// the level-2 sum, which only those rows made, is added into level 3: those blocks' sums are
// computed across threads and added in order, the same bits as one thread.
template <class T, int N, class Load>
std::array<T, N> multiRowSum(const char* in, int64_t rowStride, int64_t colStride, int64_t size, const Load& load) {
    constexpr int64_t numLevels = 4;
    const int64_t levelPower = std::max<int64_t>(4, ceilLog2(size) / numLevels);
    const int64_t levelStep = int64_t(1) << levelPower;
    const int64_t levelMask = levelStep - 1;
    using Levels = std::array<std::array<T, N>, numLevels>;
    // Rows [i, end) in whole level steps, pushing sums up the levels as i passes their marks.
    auto addSteps = [&](Levels& acc, int64_t i, int64_t end) {
        int64_t sincePoll = 0;
        while (i + levelStep <= end) {
            if ((sincePoll += levelStep * N) >= kCancelPollElements) sincePoll = 0, throwIfCancelled();
            for (int64_t j = 0; j < levelStep; ++j, ++i) {
                const char* base = in + i * rowStride;
                for (int k = 0; k < N; ++k) acc[0][k] += load(base, colStride, k);
            }
            for (int64_t j = 1; j < numLevels; ++j) {
                for (int k = 0; k < N; ++k) {
                    acc[j][k] += acc[j - 1][k];
                    acc[j - 1][k] = T{};
                }
                const int64_t mask = levelMask << (j * levelPower);
                if ((i & mask) != 0) break;
            }
        }
        return i;
    };
    Levels acc{};
    const int64_t blockRows = int64_t(1) << (3 * levelPower), blocks = size / blockRows;
    if (blocks >= 2) {
        std::vector<std::array<T, N>> blockSums(static_cast<std::size_t>(blocks));
        parallelFor(blocks, std::max<int64_t>(1, kParallelGrain / (blockRows * N)), [&](int64_t begin, int64_t end) {
            for (int64_t b = begin; b < end; ++b) {
                Levels own{};
                addSteps(own, b * blockRows, (b + 1) * blockRows);
                blockSums[static_cast<std::size_t>(b)] = own[numLevels - 1];
            }
        });
        for (const auto& sum : blockSums)
            for (int k = 0; k < N; ++k) acc[numLevels - 1][k] += sum[k];
    }
    int64_t i = addSteps(acc, blocks >= 2 ? blocks * blockRows : 0, size);
    for (; i < size; ++i) {
        const char* base = in + i * rowStride;
        for (int k = 0; k < N; ++k) acc[0][k] += load(base, colStride, k);
    }
    for (int64_t j = 1; j < numLevels; ++j)
        for (int k = 0; k < N; ++k) acc[0][k] += acc[j][k];
    return acc[0];
}

// ATen's row_sum: one row, viewed as (-1, 4) for four independent accumulators.
template <class T, class Load>
T rowSum(const char* in, int64_t stride, int64_t size, const Load& load) {
    constexpr int64_t ilp = 4;
    const int64_t sizeIlp = size / ilp;
    auto partial = multiRowSum<T, ilp>(in, stride * ilp, stride, sizeIlp, load);
    for (int64_t i = sizeIlp * ilp; i < size; ++i) partial[0] += load(in, stride, i);
    for (int64_t k = 1; k < ilp; ++k) partial[0] += partial[k];
    return partial[0];
}

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

template <class E>
struct Kernel {
    using A = typename E::A;
    static constexpr int W = E::W;
    static constexpr int VW = E::VW;
    static constexpr int64_t item = E::size;
    using V = Lanes<A, W>;

    static A scalarLoad(const char* data, int64_t stride, int64_t index) { return E::load(data + index * stride); }
    // InnerSumCastLoadPolicy: a full Vectorized<S> folded down to Vectorized<A>. For float and
    // double that is a plain load; for Half/BFloat16 (32 lanes into 16) the two halves are
    // converted and added (load_fp32_from_bf16/fp16: first + second).
    static V innerLoad(const char* data, int64_t stride, int64_t index) {
        const char* p = data + index * stride;
        V out;
        if constexpr (VW == W) {
            for (int i = 0; i < W; ++i) out.v[i] = E::load(p + i * item);
        } else {
            for (int i = 0; i < W; ++i) out.v[i] = E::load(p + i * item) + E::load(p + (i + W) * item);
        }
        return out;
    }
    // OuterSumCastLoadPolicy: W consecutive elements converted to A.
    static V outerLoad(const char* data, int64_t stride, int64_t index) {
        const char* p = data + index * stride;
        V out;
        for (int i = 0; i < W; ++i) out.v[i] = E::load(p + i * item);
        return out;
    }

    // One call of cascade_sum's 2-D loop. strides: out0, in0, out1, in1 (bytes).
    static void loop2d(char* out, const char* in, const int64_t* strides, int64_t size0, int64_t size1) {
        int64_t inStrides[2] = {strides[1], strides[3]};
        int64_t outStrides[2] = {strides[0], strides[2]};
        if (outStrides[0] != 0 && outStrides[1] == 0) {
            std::swap(inStrides[0], inStrides[1]);
            std::swap(outStrides[0], outStrides[1]);
            std::swap(size0, size1);
        }
        if (outStrides[0] != 0 && outStrides[1] != 0) {  // not a true reduction: out += in
            for (int64_t j = 0; j < size1; ++j)
                for (int64_t i = 0; i < size0; ++i)
                    E::addOut(out + j * strides[2] + i * strides[0], E::load(in + j * strides[3] + i * strides[1]));
            return;
        }
        const int64_t outStride = outStrides[1];
        auto store = [&](int64_t index, A v) { E::addOut(out + index * outStride, v); };
        auto sload = [](const char* d, int64_t s, int64_t i) { return scalarLoad(d, s, i); };
        if (inStrides[0] == item && size0 >= VW) {
            // Contiguous inner reduction: one accumulator per lane, then tail, then lanes.
            const int64_t vecStride = item * VW;
            const int64_t vecSize = size0 / VW;
            for (int64_t j = 0; j < size1; ++j) {
                const char* row = in + j * inStrides[1];
                V acc = rowSum<V>(row, vecStride, vecSize, [](const char* d, int64_t s, int64_t i) { return innerLoad(d, s, i); });
                A final = 0;
                for (int64_t k = vecSize * VW; k < size0; ++k) final += scalarLoad(row, item, k);
                for (int k = 0; k < W; ++k) final += acc.v[k];
                store(j, final);
            }
        } else if (inStrides[1] == item && size1 >= VW) {
            // Contiguous outer reduction: columns in groups of 4 vectors, then single vectors,
            // then scalars.
            constexpr int nrows = 4;
            const int64_t vecStride = item * W;
            auto vload = [](const char* d, int64_t s, int64_t i) { return outerLoad(d, s, i); };
            int64_t j = 0;
            for (; j + nrows * W <= size1; j += nrows * W) {
                auto sums = multiRowSum<V, nrows>(in + j * item, inStrides[0], vecStride, size0, vload);
                for (int r = 0; r < nrows; ++r)
                    for (int k = 0; k < W; ++k) store(j + r * W + k, sums[r].v[k]);
            }
            for (; j + W <= size1; j += W) {
                V sums = rowSum<V>(in + j * item, inStrides[0], size0, vload);
                for (int k = 0; k < W; ++k) store(j + k, sums.v[k]);
            }
            for (; j < size1; ++j) store(j, rowSum<A>(in + j * item, inStrides[0], size0, sload));
        } else if (inStrides[0] < inStrides[1]) {
            for (int64_t j = 0; j < size1; ++j) store(j, rowSum<A>(in + j * inStrides[1], inStrides[0], size0, sload));
        } else {
            constexpr int nrows = 4;
            int64_t j = 0;
            for (; j + (nrows - 1) < size1; j += nrows) {
                auto sums = multiRowSum<A, nrows>(in + j * inStrides[1], inStrides[0], inStrides[1], size0, sload);
                for (int r = 0; r < nrows; ++r) store(j + r, sums[r]);
            }
            for (; j < size1; ++j) store(j, rowSum<A>(in + j * inStrides[1], inStrides[0], size0, sload));
        }
    }
};

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
    for (;;) {
        int64_t outOff = 0, inOff = 0;
        for (std::size_t d = 2; d < dims.size(); ++d) {
            outOff += idx[d] * dims[d].outStride;
            inOff += idx[d] * dims[d].inStride;
        }
        Kernel<E>::loop2d(outBase + outOff, inBase + inOff, strides, dims[0].size, dims[1].size);
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
