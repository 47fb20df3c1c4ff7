#include "runtime/cuda_availability.h"

#include "runtime/cuda_driver.h"

namespace fusescope {

std::string cudaRuntimeUnavailableReason() {
    const CudaDriverStatus& driver = cudaDriverStatus();
    std::string hint = "; run with --gpu-codegen-only to run cuda tensors on the CPU and still generate their CUDA kernels";
    if (driver.devices == 0) return driver.reason + hint;
    return "Fusescope cannot run tensors on the GPU yet (its CUDA runtime is not built)" + hint;
}

}  // namespace fusescope
