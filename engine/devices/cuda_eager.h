#pragma once
// Eager ops on cuda tensors as GPU kernels. An op call whose tensors are all on the GPU
// becomes a graph of that one op, compiled by the inductor stages for the CUDA device
// (decompose, lower, schedule, CUDA C++ through NVRTC) and kept per signature (the op, each
// tensor's sizes, strides and dtype, the other arguments' values, Python numbers included),
// so a call with a seen signature launches its kernels at once. An in-place op runs as its
// functional twin, the result copied into a contiguous self on the device. The op computes
// on the host copy, as before, when it makes no kernel of its own: views, random ops,
// in-place ops on a non-contiguous self, ops without a lowering, results whose layout
// differs from eager's.

#include <optional>
#include <string>
#include <vector>

#include "core/device.h"
#include "ops/op_registry.h"

namespace fusescope {

// The op's result computed on the GPU, or nullopt when it computes on the host (also when
// this session does not run kernels on a GPU).
std::optional<IValue> runEagerOpOnGpu(const OpDef& op, const BoundArgs& args, const Device& device);

// What became of each eager op signature seen so far in this process, in order: its op, and
// why it computes on the host ("" when it runs as GPU kernels). For tests and the docs.
struct EagerGpuVerdict {
    std::string op;
    std::string onHostBecause;
};
std::vector<EagerGpuVerdict> eagerGpuVerdicts();

}  // namespace fusescope
