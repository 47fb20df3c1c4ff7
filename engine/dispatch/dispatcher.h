#pragma once
// The way every op call takes to its kernel: ordered layers, each one concern, as PyTorch's
// dispatch keys are.
//
//   capture    while a compiled function is traced, the call is recorded into the graph
//              and answered with meta tensors; it goes no further
//   (the call binds to the op's schema here; a base name resolves among its overloads)
//   complex    complex arguments: the op's complexKernel runs instead (its real ops take
//              these layers themselves), or the op refuses them
//   autograd   grad mode: in-place ops on leaves that require grad are refused, results of
//              ops on tensors that require grad get their backward node
//   profiling  while the profiler records, the call is a trace span with its arguments
//   device     the kernel runs (shape inference for meta tensors); results go on the
//              device of the call's tensors (on a GPU, cuda tensors' ops run there)
//
// Each layer does its part around `next(call)`, which runs the layers below it.

#include <functional>
#include <optional>

#include "ops/op_call.h"

namespace fusescope {

// A call bound to one overload's schema, as the layers below capture see it.
struct BoundCall {
    const OpDef& op;
    const BoundArgs& args;
    bool meta = false;  // some argument is a meta tensor (or device): only shapes are computed
};

using NextLayer = std::function<IValue(const BoundCall&)>;

class DispatchLayer {
public:
    virtual ~DispatchLayer() = default;
    virtual const char* name() const = 0;
    virtual IValue call(const BoundCall& call, const NextLayer& next) const = 0;
};

// The layers below capture, in order.
const std::vector<const DispatchLayer*>& dispatchLayers();

// The complex layer's answer for a bound call (capture asks it for meta results too): the
// op's complexKernel result when a complex tensor or dtype is among the arguments and the op
// computes values; nullopt when its own kernel can run; PyTorch's "not implemented for
// 'ComplexFloat'" when it has no complex form.
std::optional<IValue> complexCall(const OpDef& op, const BoundArgs& args);

// Runs a call through every layer.
IValue dispatch(const OpCall& call);
// An op call from the engine itself (no script location, never captured); an unknown name
// is an AttributeError, as for torch.<name>.
IValue dispatch(std::string_view opName, const IValueList& args, const Kwargs& kwargs = {});

// While one is installed on this thread (RecordingOps), the engine's own op calls above
// (those derivatives are written with) are handed to it instead of run: AOT Autograd
// records a backward graph by running derivatives on meta tensors.
class OpRecorder {
public:
    virtual ~OpRecorder() = default;
    virtual IValue record(std::string_view opName, const IValueList& args, const Kwargs& kwargs) = 0;
};
class RecordingOps {
public:
    explicit RecordingOps(OpRecorder& recorder);
    ~RecordingOps();
    RecordingOps(const RecordingOps&) = delete;
    RecordingOps& operator=(const RecordingOps&) = delete;

private:
    OpRecorder* previous_;
};

}  // namespace fusescope
