// The device layer, last: the op's kernel runs (its shape inference for meta arguments) and
// its results are labelled with the device of its tensor arguments (ops/op_devices.h). On a
// GPU, ops on cuda tensors run as GPU kernels where they can (devices/cuda_eager.h).

#include "devices/cuda_eager.h"
#include "dispatch/dispatch_layers.h"
#include "ops/op_devices.h"

namespace fusescope {

namespace {

class DeviceLayer : public DispatchLayer {
public:
    const char* name() const override { return "device"; }
    IValue call(const BoundCall& call, const NextLayer&) const override {
        if (call.meta) return OpRegistry::instance().run(call.op, call.args);
        std::optional<Device> device = resultDevice(call.op, call.args);
        if (device)
            if (std::optional<IValue> onGpu = runEagerOpOnGpu(call.op, call.args, *device)) return *onGpu;
        IValue result = OpRegistry::instance().run(call.op, call.args);
        if (device) placeResults(result, *device);
        return result;
    }
};

}  // namespace

const DispatchLayer& deviceLayer() {
    static const DeviceLayer layer;
    return layer;
}

}  // namespace fusescope
