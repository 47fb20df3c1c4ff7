#include "ops/op_devices.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"

namespace fusescope {

namespace {

void collectDevices(const IValue& v, std::vector<Device>& devices) {
    if (v.isTensor()) {
        const Tensor& t = v.toTensor();
        if (!t.defined() || (t.dim() == 0 && t.device().isCpu())) return;  // CPU scalars go anywhere
        if (std::find(devices.begin(), devices.end(), t.device()) == devices.end()) devices.push_back(t.device());
    } else if (v.isSequence()) {
        for (const IValue& item : v.toSequence()->items) collectDevices(item, devices);
    }
}

bool placesItsOwnResults(const OpDef& op, const BoundArgs& args) {
    return op.name == "cpu" || op.name == "to.other" ||
           std::find(args.names.begin(), args.names.end(), "device") != args.names.end();
}

}  // namespace

std::optional<Device> resultDevice(const OpDef& op, const BoundArgs& args) {
    std::vector<Device> devices;
    for (const IValue& v : args.values_) collectDevices(v, devices);
    if (devices.size() > 1)
        throw ScriptError("RuntimeError", fmt::format("Expected all tensors to be on the same device, but found at least two "
                                                      "devices, {} and {}!",
                                                      devices[0].str(), devices[1].str()));
    if (devices.empty() || devices[0].isCpu() || placesItsOwnResults(op, args)) return std::nullopt;
    return devices[0];
}

void placeResults(const IValue& result, const Device& device) {
    if (result.isTensor()) {
        if (result.toTensor().defined()) result.toTensor().setDevice(device);
    } else if (result.isSequence()) {
        for (const IValue& item : result.toSequence()->items) placeResults(item, device);
    }
}

}  // namespace fusescope
