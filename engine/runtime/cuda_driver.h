#pragma once
// The CUDA driver (libcuda.so.1), opened at run time so one binary runs on machines with
// and without a GPU; probed once per process. Only the driver API is used (no libcudart):
// the primary context of device 0, memory, copies, modules, launches and events.

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"

namespace fusescope {

struct CudaDriverStatus {
    int devices = 0;     // GPUs the driver sees
    std::string reason;  // why there is none: "no CUDA driver found (...)", "no CUDA device"; "" with one
};

const CudaDriverStatus& cudaDriverStatus();

// A failed driver call: "CUDA error: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access
// was encountered) in cuCtxSynchronize".
class CudaError : public Error {
public:
    CudaError(int code, const std::string& message) : Error(message), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

using CudaDevicePtr = unsigned long long;  // CUdeviceptr
using CudaStream = void*;                  // CUstream (null: the legacy default stream)
using CudaModule = void*;                  // CUmodule
using CudaFunction = void*;                // CUfunction
using CudaEvent = void*;                   // CUevent

// The driver entry points Fusescope calls (the _v2 ABI of each), resolved once.
struct CudaApi {
    int (*cuMemAlloc)(CudaDevicePtr*, size_t);
    int (*cuMemFree)(CudaDevicePtr);
    int (*cuMemGetInfo)(size_t* free, size_t* total);
    int (*cuMemcpyHtoD)(CudaDevicePtr, const void*, size_t);
    int (*cuMemcpyDtoH)(void*, CudaDevicePtr, size_t);
    int (*cuMemcpyDtoD)(CudaDevicePtr, CudaDevicePtr, size_t);
    int (*cuMemsetD8)(CudaDevicePtr, unsigned char, size_t);
    int (*cuModuleLoadData)(CudaModule*, const void*);
    int (*cuModuleUnload)(CudaModule);
    int (*cuModuleGetFunction)(CudaFunction*, CudaModule, const char*);
    int (*cuModuleGetGlobal)(CudaDevicePtr*, size_t*, CudaModule, const char*);
    int (*cuLaunchKernel)(CudaFunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CudaStream,
                          void**, void**);
    int (*cuCtxSynchronize)();
    int (*cuEventCreate)(CudaEvent*, unsigned);
    int (*cuEventDestroy)(CudaEvent);
    int (*cuEventRecord)(CudaEvent, CudaStream);
    int (*cuEventSynchronize)(CudaEvent);
    int (*cuEventElapsedTime)(float*, CudaEvent, CudaEvent);

    std::string deviceName;  // "NVIDIA H100 80GB HBM3"
    std::string arch;        // sm_90, from the device's compute capability
    int multiprocessors = 0;
};

// The driver with device 0's primary context made current on the calling thread. Throws
// RuntimeError with cudaDriverStatus().reason when there is no GPU.
const CudaApi& cudaApi();

// Throws CudaError naming the call for a non-zero driver result.
void cudaCheck(int result, const char* call);

// A kernel faulted (an illegal address or instruction, a failed launch): the driver leaves
// the context unusable for the rest of the process, so every later call fails too. The
// engine reports the error and then exits (serve), to be started afresh.
bool cudaContextLost();

}  // namespace fusescope
