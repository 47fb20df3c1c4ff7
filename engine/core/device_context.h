#pragma once
// What the running session says about devices, as PyTorch keeps its default device per
// thread: where factories put tensors without device= (torch.set_default_device), and
// whether cuda tensors can be made. The session owns one and installs it on the thread
// that runs its script (DeviceContextScope); code outside any session sees the defaults
// (cpu, no cuda tensors).
//
// With GPU code generation only (`--gpu-codegen-only`), cuda tensors keep their data in host
// memory and eager ops compute them on the CPU, while compiled graphs still generate and
// compile every CUDA kernel they would launch. Otherwise cuda tensors need a GPU (making one
// without fails with the reason): compiled graphs run there, eager ops on the host copy.

#include <string>

#include "core/device.h"
#include "core/thread_current.h"

namespace fusescope {

struct DeviceContext {
    Device defaultDevice = Device::cpu();
    // Why cuda tensors cannot be made (no driver, no device, no runtime); "" when they can.
    std::string cudaUnavailableReason = "no CUDA runtime in this context";
    // GPU code generation only: cuda tensors live on the host and compiled graphs run as C++.
    bool cudaOnHost = false;
};

// Makes a context the current thread's for the scope's lifetime.
using DeviceContextScope = ThreadCurrent<DeviceContext>::Scope;

DeviceContext& currentDeviceContext();

// Whether scripts can make cuda tensors, and why not.
bool cudaTensorsAvailable();
// Whether cuda tensors' kernels run on a GPU (not on the host under GPU code generation only).
bool cudaKernelsRunOnGpu();
// Throws RuntimeError with the reason for a cuda device that cannot be used.
void requireUsable(const Device& device);

// torch.set_default_device / get_default_device.
void setDefaultDevice(const Device& device);
Device defaultDevice();

// A device as tensors carry it: a cuda device without an index is cuda:0 (the current one).
Device concreteDevice(Device device);

}  // namespace fusescope
