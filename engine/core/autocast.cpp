#include "core/autocast.h"

namespace fusescope {

namespace {
thread_local AutocastSetting cpu{false, DType::BFloat16};
thread_local AutocastSetting cuda{false, DType::Float16};
thread_local AutocastSetting meta{false, DType::Float32};
}  // namespace

AutocastSetting& autocastSetting(Device::Kind kind) {
    switch (kind) {
    case Device::Kind::Cpu: return cpu;
    case Device::Kind::Cuda: return cuda;
    case Device::Kind::Meta: break;
    }
    meta = {};
    return meta;
}

bool autocastActive() { return cpu.enabled || cuda.enabled; }

}  // namespace fusescope
