#include "runtime/cuda_availability.h"

#include "runtime/cuda_allocator.h"
#include "runtime/cuda_driver.h"

namespace fusescope {

std::string cudaRuntimeUnavailableReason() {
    const CudaDriverStatus& driver = cudaDriverStatus();
    std::string hint = "; run with --gpu-codegen-only to run cuda tensors on the CPU and still generate their CUDA kernels";
    return driver.devices == 0 ? driver.reason + hint : "";
}

size_t cudaBlocksHandedOut() {
    return cudaDriverStatus().devices == 0 ? 0 : CudaCachingAllocator::instance().stats().blocksHandedOut;
}

}  // namespace fusescope
