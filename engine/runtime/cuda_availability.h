#pragma once
// Why this process cannot run tensors on a GPU (no CUDA driver, no device), or "" when it
// can. A session that is not limited to GPU code generation puts it in
// its DeviceContext (core/device_context.h), so making a cuda tensor fails with it.

#include <string>

namespace fusescope {

std::string cudaRuntimeUnavailableReason();

}  // namespace fusescope
