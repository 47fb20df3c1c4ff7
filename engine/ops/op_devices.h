#pragma once
// Which device an eager op's results belong to. Kernels compute on the CPU; under GPU code
// generation only (core/device_context.h) an op on cuda tensors gives cuda tensors.

#include <functional>
#include <optional>

#include "ops/op_registry.h"

namespace fusescope {

// The first two devices among tensors; a 0-dim CPU tensor goes with any device. Tracing
// passes `deviceOf` because its meta tensors stand for tensors that live elsewhere
// (nullopt: not known, goes with any).
class SeenDevices {
public:
    using DeviceOf = std::function<std::optional<Device>(const Tensor&)>;
    explicit SeenDevices(DeviceOf deviceOf = {}) : deviceOf_(std::move(deviceOf)) {}
    void collect(const IValue& v);
    // The one device seen (nullopt when none); throws RuntimeError when there were two.
    std::optional<Device> common() const;
    // Whether a 0-dim CPU tensor was among them (the device of an op on such tensors alone).
    bool sawCpuScalar() const { return cpuScalar_; }

private:
    DeviceOf deviceOf_;
    std::optional<Device> first_, second_;
    bool cpuScalar_ = false;
};

// Ops whose results go where a parameter says (a `device` argument, cpu(), to(other)).
bool placesItsOwnResults(const OpDef& op, const BoundArgs& args);

// The device of the op's tensor arguments when it is not the CPU; nullopt for CPU ops and
// for ops that place their results themselves. Throws RuntimeError when devices mix.
std::optional<Device> resultDevice(const OpDef& op, const BoundArgs& args);

// Labels every tensor of an op's result with `device`.
void placeResults(const IValue& result, const Device& device);

}  // namespace fusescope
