#pragma once
// Autocast, as PyTorch's torch.autocast: while it is on for a device type, the ops of its
// policy (script/autocast.cpp) cast their floating inputs, matrix products and convolutions
// to the lower-precision dtype, losses and reductions that need range to float32. One
// setting per device type and thread, as PyTorch keeps it; compiled code guards on it
// (Dynamo's GLOBAL_STATE).

#include "core/device.h"
#include "core/dtype.h"

namespace fusescope {

struct AutocastSetting {
    bool enabled = false;
    DType dtype = DType::BFloat16;  // the CPU's default; CUDA's is float16
    bool operator==(const AutocastSetting&) const = default;
};

// The setting for cpu or cuda tensors (Device::Kind::Meta has none: never on).
AutocastSetting& autocastSetting(Device::Kind kind);
// Whether autocast is on for any device type (the cheap check before every op).
bool autocastActive();

}  // namespace fusescope
