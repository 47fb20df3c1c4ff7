#include "autograd/argument_gradients.h"

#include <algorithm>

#include "autograd/derivative_ops.h"
#include "core/error.h"

namespace fusescope {

bool anyRequiresGrad(const IValue& v) {
    if (v.isTensor()) return v.toTensor().defined() && v.toTensor().requiresGrad();
    if (v.isSequence())
        for (const IValue& item : v.toSequence()->items)
            if (anyRequiresGrad(item)) return true;
    return false;
}

Tensor withoutHistory(const Tensor& t) {
    auto impl = std::make_shared<TensorImpl>(*t.impl());
    impl->autograd = {};
    impl->requiresGrad = false;
    return Tensor(impl);
}

bool managesGradItself(std::string_view opName) {
    std::string_view base = baseOpName(opName);
    return base == "requires_grad_" || base == "detach" || base == "detach_";
}

bool recordsGradFn(std::string_view opName, const BoundArgs& args) {
    // Factories shaped like an argument and torch.tensor(t) make tensors no gradient flows through.
    const std::string_view base = baseOpName(opName);
    if (managesGradItself(opName) || base == "tensor" || base.ends_with("_like")) return false;
    return std::any_of(args.values_.begin(), args.values_.end(), [](const IValue& v) { return anyRequiresGrad(v); });
}

std::vector<TensorSlot> tensorSlots(const BoundArgs& args) {
    std::vector<TensorSlot> slots;
    for (size_t a = 0; a < args.size(); ++a) {
        const IValue& v = args.at(a);
        if (v.isTensor()) {
            slots.push_back({a, 0});
        } else if (v.isSequence()) {
            const IValueList& items = v.toSequence()->items;
            for (size_t i = 0; i < items.size(); ++i)
                if (items[i].isTensor()) slots.push_back({a, i});
        }
    }
    return slots;
}

std::string noDerivativeMessage(const OpDef& op, const BoundArgs& args) {
    if (op.gradFn && op.gradFn(args) == grad::kNotImplementedNode) return "derivative for aten::" + op.name + " is not implemented";
    return "the derivative for '" + op.name + "' is not implemented.";
}

std::vector<Tensor> slotGradients(const OpDef& op, const BoundArgs& args, const IValue& result, const Tensor& grad,
                                  const std::vector<TensorSlot>& slots, const std::function<void(std::string_view)>* beforeRead,
                                  const std::vector<Tensor>* resultGrads) {
    if (!op.derivative) throw ScriptError("RuntimeError", noDerivativeMessage(op, args));
    std::vector<Tensor> grads(slots.size());
    std::vector<size_t> given(args.size(), 0);  // gradients so far for each argument: a list's go in order
    for (auto& [name, g] : op.derivative(DerivativeArgs{args, result, grad, beforeRead, resultGrads})) {
        size_t a = static_cast<size_t>(std::find(args.names.begin(), args.names.end(), name) - args.names.begin());
        size_t item = a < given.size() ? given[a]++ : 0;
        for (size_t s = 0; s < slots.size(); ++s)
            if (slots[s].argument == a && slots[s].item == item) grads[s] = std::move(g);
    }
    for (size_t s = 0; s < slots.size(); ++s) {
        const IValue& v = args.at(slots[s].argument);
        const Tensor& t = v.isTensor() ? v.toTensor() : v.toSequence()->items[slots[s].item].toTensor();
        const std::string& name = args.names[slots[s].argument];
        if (!grads[s].defined() && t.defined() && t.requiresGrad() && isFloating(t.dtype()) &&
            std::find(op.notDifferentiable.begin(), op.notDifferentiable.end(), name) == op.notDifferentiable.end())
            throw ScriptError("RuntimeError", "the derivative for '" + op.name + "' with respect to '" + name + "' is not implemented.");
    }
    return grads;
}

}  // namespace fusescope
