#include "ops/op_devices.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"

namespace fusescope {

void SeenDevices::collect(const IValue& v) {
    if (v.isTensor()) {
        const Tensor& t = v.toTensor();
        if (!t.defined()) return;
        std::optional<Device> device = deviceOf_ ? deviceOf_(t) : t.device();
        if (!device) return;
        if (t.dim() == 0 && device->isCpu()) {  // CPU scalars go anywhere
            cpuScalar_ = true;
            return;
        }
        if (!first_) first_ = device;
        else if (!second_ && *device != *first_) second_ = device;
    } else if (v.isSequence()) {
        for (const IValue& item : v.toSequence()->items) collect(item);
    }
}

std::optional<Device> SeenDevices::common() const {
    if (second_)
        throw ScriptError("RuntimeError", fmt::format("Expected all tensors to be on the same device, but found at least "
                                                      "two devices, {} and {}!",
                                                      first_->str(), second_->str()));
    return first_;
}

bool placesItsOwnResults(const OpDef& op, const BoundArgs& args) {
    return op.name == "cpu" || op.name == "to.other" ||
           std::find(args.names.begin(), args.names.end(), "device") != args.names.end();
}

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
