#include "dispatch/dispatcher.h"

#include "dispatch/dispatch_layers.h"

namespace fusescope {

namespace {

IValue runFrom(size_t layer, const BoundCall& call) {
    const auto& layers = dispatchLayers();
    if (layer + 1 == layers.size()) return layers[layer]->call(call, nullptr);
    return layers[layer]->call(call, [layer](const BoundCall& c) { return runFrom(layer + 1, c); });
}

// Binds to the overload the arguments fit (scripts and graphs name ops by their base name),
// then runs the layers below capture.
IValue runBound(std::string_view name, const IValueList& args, const Kwargs& kwargs) {
    auto [op, bound] = OpRegistry::instance().resolve(name, args, kwargs);
    return runFrom(0, BoundCall{*op, bound, hasMetaArgument(bound)});
}

}  // namespace

const std::vector<const DispatchLayer*>& dispatchLayers() {
    static const std::vector<const DispatchLayer*> layers = {&complexLayer(), &autogradLayer(), &profilingLayer(), &deviceLayer()};
    return layers;
}

IValue dispatch(const OpCall& call) {
    if (call.capture) return call.capture->captureOp(call);
    return runBound(baseOpName(call.op.name), call.args, call.kwargs);
}

namespace {
thread_local OpRecorder* recorder = nullptr;
}

IValue dispatch(std::string_view opName, const IValueList& args, const Kwargs& kwargs) {
    if (recorder) return recorder->record(opName, args, kwargs);
    return runBound(opName, args, kwargs);
}

RecordingOps::RecordingOps(OpRecorder& r) : previous_(recorder) { recorder = &r; }
RecordingOps::~RecordingOps() { recorder = previous_; }

}  // namespace fusescope
