#include "runtime/cuda_driver.h"

#include <atomic>

#include <fmt/format.h>

#include "toolchain/cuda/shared_library.h"

namespace fusescope {

namespace {

const SharedLibrary& driverLibrary() {
    static const SharedLibrary driver({"libcuda.so.1"});
    return driver;
}

CudaDriverStatus probe() {
    const SharedLibrary& driver = driverLibrary();
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

template <class F> void resolve(F& slot, const char* name) {
    slot = driverLibrary().function<F>(name);
    if (!slot) throw Error(fmt::format("the CUDA driver (libcuda.so.1) lacks {}", name));
}

// CU_DEVICE_ATTRIBUTE_*
constexpr int kMultiprocessorCount = 16, kComputeCapabilityMajor = 75, kComputeCapabilityMinor = 76;

struct Context {
    CudaApi api{};
    void* context = nullptr;  // CUcontext: device 0's primary context

    Context() {
        const CudaDriverStatus& status = cudaDriverStatus();
        if (status.devices == 0) throw ScriptError("RuntimeError", status.reason);
        using DeviceFn = int (*)(int*, int);
        int (*getDevice)(int*, int) = nullptr;
        int (*retain)(void**, int) = nullptr;
        int (*attribute)(int*, int, int) = nullptr;
        int (*name)(char*, int, int) = nullptr;
        resolve<DeviceFn>(getDevice, "cuDeviceGet");
        resolve(retain, "cuDevicePrimaryCtxRetain");
        resolve(attribute, "cuDeviceGetAttribute");
        resolve(name, "cuDeviceGetName");
        resolve(setCurrent, "cuCtxSetCurrent");
        int device = 0;
        cudaCheck(getDevice(&device, 0), "cuDeviceGet");
        cudaCheck(retain(&context, device), "cuDevicePrimaryCtxRetain");
        char text[256] = {};
        cudaCheck(name(text, sizeof text, device), "cuDeviceGetName");
        api.deviceName = text;
        int major = 0, minor = 0;
        cudaCheck(attribute(&major, kComputeCapabilityMajor, device), "cuDeviceGetAttribute");
        cudaCheck(attribute(&minor, kComputeCapabilityMinor, device), "cuDeviceGetAttribute");
        cudaCheck(attribute(&api.multiprocessors, kMultiprocessorCount, device), "cuDeviceGetAttribute");
        api.arch = fmt::format("sm_{}{}", major, minor);
        resolve(api.cuMemAlloc, "cuMemAlloc_v2");
        resolve(api.cuMemFree, "cuMemFree_v2");
        resolve(api.cuMemGetInfo, "cuMemGetInfo_v2");
        resolve(api.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
        resolve(api.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
        resolve(api.cuMemcpyDtoD, "cuMemcpyDtoD_v2");
        resolve(api.cuMemsetD8, "cuMemsetD8_v2");
        resolve(api.cuModuleLoadData, "cuModuleLoadData");
        resolve(api.cuModuleUnload, "cuModuleUnload");
        resolve(api.cuModuleGetFunction, "cuModuleGetFunction");
        resolve(api.cuModuleGetGlobal, "cuModuleGetGlobal_v2");
        resolve(api.cuLaunchKernel, "cuLaunchKernel");
        resolve(api.cuCtxSynchronize, "cuCtxSynchronize");
        resolve(api.cuEventCreate, "cuEventCreate");
        resolve(api.cuEventDestroy, "cuEventDestroy_v2");
        resolve(api.cuEventRecord, "cuEventRecord");
        resolve(api.cuEventSynchronize, "cuEventSynchronize");
        resolve(api.cuEventElapsedTime, "cuEventElapsedTime");
    }

    int (*setCurrent)(void*) = nullptr;
};

}  // namespace

const CudaDriverStatus& cudaDriverStatus() {
    static const CudaDriverStatus status = probe();
    return status;
}

const CudaApi& cudaApi() {
    static const Context* context = new Context;  // never destroyed: storages may outlive statics
    thread_local bool current = false;
    if (!current) {
        cudaCheck(context->setCurrent(context->context), "cuCtxSetCurrent");
        current = true;
    }
    return context->api;
}

namespace {

std::atomic<bool> contextLost{false};

// The driver's "sticky" errors: after one, the context cannot be used again.
bool losesContext(int result) {
    switch (result) {
    case 700:  // CUDA_ERROR_ILLEGAL_ADDRESS
    case 702:  // CUDA_ERROR_LAUNCH_TIMEOUT
    case 714:  // CUDA_ERROR_HARDWARE_STACK_ERROR
    case 715:  // CUDA_ERROR_ILLEGAL_INSTRUCTION
    case 716:  // CUDA_ERROR_MISALIGNED_ADDRESS
    case 717:  // CUDA_ERROR_INVALID_ADDRESS_SPACE
    case 718:  // CUDA_ERROR_INVALID_PC
    case 719:  // CUDA_ERROR_LAUNCH_FAILED
        return true;
    default: return false;
    }
}

}  // namespace

bool cudaContextLost() { return contextLost; }

void cudaCheck(int result, const char* call) {
    if (result == 0) return;
    bool lost = losesContext(result);
    if (lost) contextLost = true;
    const char* name = nullptr;
    const char* text = nullptr;
    if (auto errorName = driverLibrary().function<int (*)(int, const char**)>("cuGetErrorName")) errorName(result, &name);
    if (auto errorString = driverLibrary().function<int (*)(int, const char**)>("cuGetErrorString")) errorString(result, &text);
    std::string message = fmt::format("CUDA error: {} ({}) in {}", name ? name : std::to_string(result), text ? text : "unknown error", call);
    if (lost)
        message += ".\nA kernel faulted; kernels run asynchronously, so it is reported at the next call that waits for the GPU "
                   "and may be an earlier line's. The GPU context is lost: the engine must be restarted";
    throw CudaError(result, message);
}

}  // namespace fusescope
