// The autograd layer: what grad mode (core/grad_mode.h) makes of an eager op. When an input
// requires grad, each floating result requires grad and names the backward node PyTorch
// would give it; an in-place op on a leaf that requires grad is refused, as in PyTorch.
// Recording the backward graph itself (saved tensors, edges) will live here too.

#include <cctype>

#include "core/error.h"
#include "core/grad_mode.h"
#include "dispatch/dispatch_layers.h"

namespace fusescope {

namespace {

bool anyRequiresGrad(const IValue& v) {
    if (v.isTensor()) return v.toTensor().defined() && v.toTensor().requiresGrad();
    if (v.isSequence())
        for (const IValue& item : v.toSequence()->items)
            if (anyRequiresGrad(item)) return true;
    return false;
}

// Ops that say themselves what requires grad.
bool managesGradItself(const std::string& name) {
    return name == "requires_grad_" || name == "detach" || name == "detach_";
}

bool isInplace(const std::string& name) { return !name.empty() && name.back() == '_' && !managesGradItself(name); }

// The name of the op's backward node in PyTorch: its definition's, or the op's (an
// in-place op's functional twin's) name in CamelCase: "MulBackward0" for mul and mul_.
std::string gradFnName(const OpDef& op) {
    if (!op.gradFn.empty()) return op.gradFn;
    std::string base = op.name.substr(0, op.name.find('.'));
    if (!base.empty() && base.back() == '_') {
        base.pop_back();
        const OpDef* functional = OpRegistry::instance().find(base);
        if (functional && !functional->gradFn.empty()) return functional->gradFn;
    }
    std::string camel;
    bool upper = true;
    for (char c : base) {
        if (c == '_') {
            upper = true;
            continue;
        }
        camel += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return camel + "Backward0";
}

void mark(const IValue& v, const std::string& gradFn) {
    if (v.isTensor()) {
        const Tensor& t = v.toTensor();
        if (!t.defined() || !isFloating(t.dtype())) return;
        t.setRequiresGrad(true);
        t.impl()->gradFn = gradFn;
    } else if (v.isSequence()) {
        for (const IValue& item : v.toSequence()->items) mark(item, gradFn);
    }
}

void checkInplaceOnLeaf(const BoundCall& call) {
    const auto& values = call.args.values_;
    if (!isInplace(call.op.name) || values.empty() || !values[0].isTensor()) return;
    const Tensor& self = values[0].toTensor();
    if (self.defined() && self.requiresGrad() && self.isLeaf())
        throw ScriptError("RuntimeError", "a leaf Variable that requires grad is being used in an in-place operation.");
}

bool needsGradFn(const BoundCall& call) {
    if (managesGradItself(call.op.name)) return false;
    for (const IValue& v : call.args.values_)
        if (anyRequiresGrad(v)) return true;
    return false;
}

class AutogradLayer : public DispatchLayer {
public:
    const char* name() const override { return "autograd"; }
    IValue call(const BoundCall& call, const NextLayer& next) const override {
        if (call.meta || !gradEnabled()) return next(call);
        checkInplaceOnLeaf(call);
        IValue result = next(call);
        if (needsGradFn(call)) mark(result, gradFnName(call.op));
        return result;
    }
};

}  // namespace

const DispatchLayer& autogradLayer() {
    static const AutogradLayer layer;
    return layer;
}

}  // namespace fusescope
