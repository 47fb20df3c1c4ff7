#include "runtime/cuda_placement.h"

#include <atomic>
#include <mutex>

#include "core/error.h"
#include "runtime/cuda_driver.h"

namespace fusescope {

namespace {

std::atomic<bool> codegenOnly{false};
std::mutex settingsMutex;  // guards the one below
Device defaultDeviceValue = Device::cpu();

}  // namespace

void setGpuCodegenOnly(bool on) { codegenOnly = on; }
bool gpuCodegenOnly() { return codegenOnly; }

bool cudaTensorsAvailable() { return gpuCodegenOnly(); }

std::string cudaUnavailableReason() {
    if (cudaTensorsAvailable()) return "";
    const CudaDriverStatus& driver = cudaDriverStatus();
    std::string hint = "; run with --gpu-codegen-only to run cuda tensors on the CPU and still generate their CUDA kernels";
    if (driver.devices == 0) return driver.reason + hint;
    return "Fusescope cannot run tensors on the GPU yet (its CUDA runtime is not built)" + hint;
}

void requireUsable(const Device& device) {
    if (device.kind == Device::Kind::Cuda && !cudaTensorsAvailable())
        throw ScriptError("RuntimeError", cudaUnavailableReason());
}

void setDefaultDevice(const Device& device) {
    std::lock_guard lock(settingsMutex);
    defaultDeviceValue = concreteDevice(device);
}

Device defaultDevice() {
    std::lock_guard lock(settingsMutex);
    return defaultDeviceValue;
}

Device concreteDevice(Device device) {
    if (device.kind == Device::Kind::Cuda && device.index < 0) device.index = 0;
    return device;
}

}  // namespace fusescope
