#pragma once
// Why this process cannot run tensors on a GPU (no CUDA driver, no device), or "" when it
// can. A session that is not limited to GPU code generation puts it in
// its DeviceContext (core/device_context.h), so making a cuda tensor fails with it.

#include <cstddef>
#include <string>

namespace fusescope {

std::string cudaRuntimeUnavailableReason();

// Device memory blocks handed out so far in this process (0 without a GPU): a run that
// raised it used the GPU, and its bundle's manifest says device "cuda".
size_t cudaBlocksHandedOut();

}  // namespace fusescope
