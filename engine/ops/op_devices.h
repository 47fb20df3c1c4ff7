#pragma once
// Which device an eager op's results belong to. Kernels compute on the CPU; under GPU code
// generation only (runtime/cuda_placement.h) an op on cuda tensors gives cuda tensors.

#include <optional>

#include "ops/op_registry.h"

namespace fusescope {

// The device of the op's tensor arguments when it is not the CPU; nullopt for CPU ops and
// for ops that place their results themselves (a `device` parameter, cpu(), to(other)).
// Throws RuntimeError when tensors on two devices meet (a 0-dim CPU tensor goes with any).
std::optional<Device> resultDevice(const OpDef& op, const BoundArgs& args);

// Labels every tensor of an op's result with `device`.
void placeResults(const IValue& result, const Device& device);

}  // namespace fusescope
