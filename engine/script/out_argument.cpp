#include "script/out_argument.h"

#include <fmt/format.h>

#include "core/grad_mode.h"
#include "ops/kernel_support.h"
#include "script/interpreter.h"

namespace fusescope {

namespace {

bool anyRequiresGrad(const CallArgs& call) {
    auto needsGrad = [](const Value& v) { return v.isTensor() && v.asTensor().requiresGrad(); };
    for (const Value& v : call.args) {
        if (needsGrad(v)) return true;
        if (auto* items = sequenceItems(v))
            for (const Value& item : *items)
                if (needsGrad(item)) return true;
    }
    for (const auto& [name, v] : call.kwargs)
        if (needsGrad(v)) return true;
    return false;
}

void writeOne(Interpreter& in, const std::string& opName, const Value& result, const Value& out) {
    if (!out.isTensor()) in.fail("TypeError", fmt::format("{}(): argument 'out' must be Tensor, not {}", opName, pythonTypeName(out)));
    if (!result.isTensor()) in.fail("TypeError", fmt::format("{}() has no tensor result to write to out=", opName));
    const Tensor& made = result.asTensor();
    const Tensor& target = out.asTensor();
    if (!canCast(made.dtype(), target.dtype()))
        in.fail("RuntimeError", fmt::format("result type {} can't be cast to the desired output type {}",
                                            dtypeScalarName(made.dtype()), dtypeScalarName(target.dtype())));
    if (made.sizes() != target.sizes())
        in.fail("NotImplementedError",
                fmt::format("{}(): out= has shape {} and the result {}; PyTorch resizes out, Fusescope does not yet",
                            opName, shapeStr(target.sizes()), shapeStr(made.sizes())));
    CallArgs copy{.args = {result}, .kwargs = {}, .where = in.currentLocation()};
    in.call(in.getAttribute(out, "copy_", in.currentLocation()), copy);
}

}  // namespace

Value writeToOut(Interpreter& in, const std::string& opName, const CallArgs& call, const Value& result, const Value& out) {
    if (gradEnabled() && anyRequiresGrad(call))
        in.fail("RuntimeError", fmt::format("{}(): functions with out=... arguments don't support automatic differentiation, "
                                            "but one of the arguments requires grad.", opName));
    const ValueList* outs = sequenceItems(out);
    if (!outs) {
        writeOne(in, opName, result, out);
        return out;
    }
    const ValueList* results = sequenceItems(result);
    if (!results || results->size() != outs->size())
        in.fail("RuntimeError", fmt::format("{}(): out= needs {} tensors, one per result", opName, results ? results->size() : 1));
    for (size_t i = 0; i < outs->size(); ++i) writeOne(in, opName, (*results)[i], (*outs)[i]);
    return out;
}

}  // namespace fusescope
