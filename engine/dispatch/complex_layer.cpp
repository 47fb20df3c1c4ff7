// The complex layer, first below capture: a call with complex arguments runs the op's
// complexKernel, which computes with real ops on views of the parts (opdefs/complex.cpp);
// those calls take every layer again, so profiling and devices see real ops.

#include <fmt/format.h>

#include "core/error.h"
#include "core/grad_mode.h"
#include "dispatch/dispatch_layers.h"

namespace fusescope {

namespace {

// The first complex dtype among the arguments (a complex tensor, or a dtype= asking for one).
std::optional<DType> complexIn(const IValue& v) {
    if (v.isTensor() && v.toTensor().defined() && isComplex(v.toTensor().dtype())) return v.toTensor().dtype();
    if (v.isDType() && isComplex(v.toDType())) return v.toDType();
    if (v.isSequence())
        for (const IValue& item : v.toSequence()->items)
            if (auto t = complexIn(item)) return t;
    return std::nullopt;
}

bool requiresGradIn(const IValue& v) {
    if (v.isTensor()) return v.toTensor().defined() && v.toTensor().requiresGrad();
    if (v.isSequence())
        for (const IValue& item : v.toSequence()->items)
            if (requiresGradIn(item)) return true;
    return false;
}

class ComplexLayer : public DispatchLayer {
public:
    const char* name() const override { return "complex"; }
    IValue call(const BoundCall& call, const NextLayer& next) const override {
        if (std::optional<IValue> result = complexCall(call.op, call.args)) return *result;
        return next(call);
    }
};

}  // namespace

std::optional<IValue> complexCall(const OpDef& op, const BoundArgs& args) {
    std::optional<DType> complex;
    for (const IValue& v : args.values_)
        if ((complex = complexIn(v))) break;
    if (!complex || ((op.mayAlias || op.movesElements) && !op.complexKernel)) return std::nullopt;
    if (!op.complexKernel)
        throw ScriptError("RuntimeError", fmt::format("\"{}\" not implemented for '{}' (Fusescope's complex ops: docs/complex-tensors.md)",
                                                      args.opName, dtypeScalarName(*complex)));
    if (gradEnabled())
        for (const IValue& v : args.values_)
            if (requiresGradIn(v))
                throw ScriptError("NotImplementedError",
                                  fmt::format("{}: Fusescope does not differentiate complex tensors yet (run it under torch.no_grad())", args.opName));
    return op.complexKernel(args);
}

const DispatchLayer& complexLayer() {
    static const ComplexLayer layer;
    return layer;
}

}  // namespace fusescope
