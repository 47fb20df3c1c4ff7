#include "runtime/cuda_driver.h"

#include <fmt/format.h>

#include "toolchain/cuda/shared_library.h"

namespace fusescope {

namespace {

CudaDriverStatus probe() {
    static const SharedLibrary driver({"libcuda.so.1"});
    CudaDriverStatus status;
    if (!driver.loaded()) {
        status.reason = fmt::format("no CUDA driver found ({})", driver.error());
        return status;
    }
    auto init = driver.function<int (*)(unsigned)>("cuInit");
    auto count = driver.function<int (*)(int*)>("cuDeviceGetCount");
    if (!init || !count) {
        status.reason = "no CUDA driver found (libcuda.so.1 lacks cuInit)";
        return status;
    }
    if (int rc = init(0); rc != 0) {
        status.reason = fmt::format("no CUDA device (cuInit failed with CUDA error {})", rc);
        return status;
    }
    if (count(&status.devices) != 0 || status.devices == 0) {
        status.devices = 0;
        status.reason = "no CUDA device";
    }
    return status;
}

}  // namespace

const CudaDriverStatus& cudaDriverStatus() {
    static const CudaDriverStatus status = probe();
    return status;
}

}  // namespace fusescope
