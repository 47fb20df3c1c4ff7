#include "core/device_context.h"

#include "core/error.h"

namespace fusescope {


DeviceContext& currentDeviceContext() { return ThreadCurrent<DeviceContext>::get(); }

bool cudaTensorsAvailable() { return currentDeviceContext().cudaUnavailableReason.empty(); }

bool cudaKernelsRunOnGpu() { return cudaTensorsAvailable() && !currentDeviceContext().cudaOnHost; }

void requireUsable(const Device& device) {
    if (device.kind == Device::Kind::Cuda && !cudaTensorsAvailable())
        throw ScriptError("RuntimeError", currentDeviceContext().cudaUnavailableReason);
}

void setDefaultDevice(const Device& device) { currentDeviceContext().defaultDevice = concreteDevice(device); }
Device defaultDevice() { return currentDeviceContext().defaultDevice; }

Device concreteDevice(Device device) {
    if (device.kind == Device::Kind::Cuda && device.index < 0) device.index = 0;
    return device;
}

}  // namespace fusescope
