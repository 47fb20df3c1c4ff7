// The profiling layer: while the profiler records (profile/profiler.h), each op call is an
// `aten::` span carrying its schema, inputs and outputs in the execution-trace form.

#include "dispatch/dispatch_layers.h"
#include "profile/profiler.h"
#include "profile/trace_args.h"

namespace fusescope {

namespace {

class ProfilingLayer : public DispatchLayer {
public:
    const char* name() const override { return "profiling"; }
    IValue call(const BoundCall& call, const NextLayer& next) const override {
        if (call.meta || !Profiler::active()) return next(call);
        RecordScope scope(TraceCategory::CpuOp, "aten::" + call.op.name);
        if (TraceRecord* r = scope.record()) {
            r->opSchema = "aten::" + call.op.schema;
            r->inputs = traceArgsOf(call.args.values_);
        }
        IValue result = next(call);
        if (TraceRecord* r = scope.record()) r->outputs = traceArgsOf(result);
        return result;
    }
};

}  // namespace

const DispatchLayer& profilingLayer() {
    static const ProfilingLayer layer;
    return layer;
}

}  // namespace fusescope
