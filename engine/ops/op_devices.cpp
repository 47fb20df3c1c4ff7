#include "ops/op_devices.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"

namespace fusescope {

namespace {

// The first two devices the arguments' tensors are on (every eager op asks: no allocation).
struct SeenDevices {
    std::optional<Device> first, second;

    void collect(const IValue& v) {
        if (v.isTensor()) {
            const Tensor& t = v.toTensor();
            if (!t.defined() || (t.dim() == 0 && t.device().isCpu())) return;  // CPU scalars go anywhere
            if (!first) first = t.device();
            else if (!second && t.device() != *first) second = t.device();
        } else if (v.isSequence()) {
            for (const IValue& item : v.toSequence()->items) collect(item);
        }
    }

    std::optional<Device> common() const {
        if (second)
            throw ScriptError("RuntimeError", fmt::format("Expected all tensors to be on the same device, but found at least "
                                                          "two devices, {} and {}!",
                                                          first->str(), second->str()));
        return first;
    }
};

bool placesItsOwnResults(const OpDef& op, const BoundArgs& args) {
    return op.name == "cpu" || op.name == "to.other" ||
           std::find(args.names.begin(), args.names.end(), "device") != args.names.end();
}

}  // namespace

std::optional<Device> resultDevice(const OpDef& op, const BoundArgs& args) {
    SeenDevices devices;
    for (const IValue& v : args.values_) devices.collect(v);
    std::optional<Device> device = devices.common();
    if (!device || device->isCpu() || placesItsOwnResults(op, args)) return std::nullopt;
    return device;
}

void placeResults(const IValue& result, const Device& device) {
    if (result.isTensor()) {
        if (result.toTensor().defined()) result.toTensor().setDevice(device);
    } else if (result.isSequence()) {
        for (const IValue& item : result.toSequence()->items) placeResults(item, device);
    }
}

}  // namespace fusescope
