#pragma once
// Tensors' bytes on the GPU. A storage gets a device copy from the caching allocator when a
// kernel first needs it (Storage::deviceCopy): its host bytes are uploaded only when the
// host wrote them last, and a kernel's results stay on the device until the host reads
// them (printing, .item(), .cpu(), an eager op), so a chain of compiled calls copies
// nothing between host and device.

#include <memory>

#include "core/tensor.h"
#include "runtime/cuda_driver.h"

namespace fusescope {

// The device address of element 0 of `t`'s view, uploading its storage first when the
// device copy is missing or stale.
CudaDevicePtr cudaDataPtr(const Tensor& t);

// A contiguous tensor whose elements a kernel is about to write: device memory only, its
// host bytes are filled on the first host access.
Tensor cudaResultTensor(int64_t numel, DType dtype, Device device);

// After kernels wrote into `t`'s device copy: the host copy is stale.
void markDeviceWritten(const Tensor& t);

}  // namespace fusescope
