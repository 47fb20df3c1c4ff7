#pragma once
// CUDA code generation: one `extern "C" __global__` kernel per fused group of the schedule,
// compiled by NVRTC (toolchain/cuda), and the launch plan that runs them with the extern
// kernels (cuBLAS) in schedule order. The plan is data, run by the CUDA runtime; the
// module's text ends with it as comments, so the source a user reads says how the kernels
// are launched.
//
// Kernels:
// - pointwise: a grid-stride loop over the flat index of the group's iteration;
// - reduction: a block per row of the outer (pointwise) dims, grid-striding over rows; per
//   member in order, the block's threads stride over the reduced elements and combine their
//   partial values with warp shuffles (fs_block_reduce); members that only read the row's
//   results run on thread 0; __syncthreads() orders the members. A short row of known length
//   is persistent (cudaPersistentThreads): loaded once, kept in registers;
// - a single row of a whole-tensor reduction: split across blocks (cudaSplitMembers).
// Parameters: the buffers (KernelCode::buffers), then the size symbols.

#include <string>
#include <vector>

#include "codegen/common/kernel_code.h"
#include "codegen/common/rendered_module.h"
#include "lower/ir.h"

namespace fusescope {

// One step of the launch plan.
struct CudaLaunchStep {
    enum class Kind { Pointwise, Reduction, Extern };
    Kind kind = Kind::Pointwise;
    std::string kernel;              // cuda_fused_add_0, or extern_kernels.mm
    std::vector<std::string> args;   // buffers, then size symbols
    IndexExpr elements;              // pointwise: elements; reduction: rows (one block each)
    IndexExpr reductionElements;     // reduction: elements per row
    bool splitRow = false;           // reduction: its one row split across blocks (cudaSplitMembers)
    int threads = 0;                 // reduction: the block's threads when the kernel fixes them (persistent rows)
    std::vector<std::string> computes;  // the buffers the step writes
};

// The module, and its launch plan as data (the source ends with it as comments).
struct GeneratedCuda : RenderedModule {
    std::vector<CudaLaunchStep> steps;  // kernels and extern kernels, in order
};

// `plantFault` (the fault-in-gpu-kernel test hook) makes every kernel write through a null pointer.
GeneratedCuda generateCuda(const LoweredGraph& graph, const Schedule& schedule, bool plantFault = false);

// The device helpers every module starts with (fs_* math as in the C++ prelude, block
// reductions).
const std::string& cudaPrelude();

// One kernel's function (codegen/common/kernel_code.h).
KernelCode cudaKernel(const KernelGroup& kernel, const std::string& name, const LoweredGraph& graph, bool plantFault = false);

// Threads per block: pointwise kernels take kCudaPointwiseThreads; a reduction the next
// power of two of its row length, between one warp and kCudaReductionThreads.
constexpr int kCudaPointwiseThreads = 256;
// Elements per thread of a pointwise kernel's grid: four 16-byte vectors of floats, the
// strided loop's one unrolled group (measured on an H100 against one vector per thread and a
// grid-stride loop over 32 blocks per multiprocessor: bench/README.md, "Tiles").
constexpr int kCudaPointwiseElementsPerThread = 16;
constexpr int kCudaReductionThreads = 256;
int cudaReductionThreads(int64_t rowElements);

// A reduction kernel of a single row that starts with reductions (sums or maxima of whole
// tensors): one block per row would leave the GPU idle, so those leading reductions (the
// ones that read no result of the kernel itself) are split across up to kCudaSplitBlocks
// blocks of kCudaReductionThreads. Each block stores its partial values, and the last
// block to finish combines them and runs the kernel's other members. Returns how many
// leading members are split: 0 when the kernel is not split.
int cudaSplitMembers(const KernelGroup& kernel);
constexpr int kCudaSplitBlocks = 1024;

// A reduction whose row has a known length of at most kCudaPersistentRow is persistent: its
// block has enough threads (a power of two, 32 to kCudaPersistentMaxThreads) that each takes
// about kCudaPersistentPerThread elements of the row (up to 16 in the longest rows), always
// the same ones, and keeps what it loads in registers across the members; so softmax or
// layer_norm read their input once. Blocks of 1024 threads were slower on an H200 (softmax
// over rows of 8192 at 59% of copy bandwidth): a block-wide barrier stalls more threads,
// and fewer blocks fit on a multiprocessor. Returns the block's threads, or 0 when the row
// is not persistent.
constexpr int64_t kCudaPersistentRow = 8192;
constexpr int kCudaPersistentPerThread = 8;
constexpr int kCudaPersistentMaxThreads = 512;
int cudaPersistentThreads(const KernelGroup& kernel);
int64_t cudaSplitBlocks(int64_t rowElements);

}  // namespace fusescope
