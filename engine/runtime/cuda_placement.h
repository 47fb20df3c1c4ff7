#pragma once
// Where tensors on a cuda device live, process-wide (the session sets it per run).
//
// With GPU code generation only (`--gpu-codegen-only`), cuda tensors keep their data in host
// memory and eager ops compute them on the CPU, while compiled graphs still generate and
// compile, to PTX and cubin, every CUDA kernel they would launch: every GPU view works on a
// machine without a GPU. Otherwise a cuda tensor needs the CUDA runtime, which runs tensors
// on the GPU; until that exists, making one fails with the reason (no driver, no device,
// or the runtime missing).

#include <string>

#include "core/device.h"

namespace fusescope {

void setGpuCodegenOnly(bool on);
bool gpuCodegenOnly();

// Whether scripts can make cuda tensors, and why not.
bool cudaTensorsAvailable();
std::string cudaUnavailableReason();
// Throws RuntimeError with cudaUnavailableReason() for a cuda device that cannot be used.
void requireUsable(const Device& device);

// torch.set_default_device: where factories without device= put their tensors.
void setDefaultDevice(const Device& device);
Device defaultDevice();

// A device as tensors carry it: a cuda device without an index is cuda:0 (the current one).
Device concreteDevice(Device device);

}  // namespace fusescope
