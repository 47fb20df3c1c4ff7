#pragma once
// An op call's derivative as one gradient per tensor of its arguments (a Tensor[] argument's
// tensors each their own, in order): the eager backward node and AOT Autograd's joint graph
// both take the derivative (OpDef::derivative) this way.

#include <vector>

#include "ops/op_registry.h"

namespace fusescope {

// Whether a tensor in `v` (a tensor, or a list or tuple of them) requires grad.
bool anyRequiresGrad(const IValue& v);

// The same data as a new tensor object without autograd history (not requiring grad): what a
// backward node keeps of a result, so that it does not hold itself.
Tensor withoutHistory(const Tensor& t);

// Ops that say themselves what requires grad (detach, requires_grad_): no backward node.
bool managesGradItself(std::string_view opName);

// Whether eager mode gives a call's result a backward node (with grad mode on): a tensor
// argument requires grad, and the op neither manages requires_grad itself nor makes a fresh
// tensor (zeros_like, torch.tensor(t)). Its floating results then require grad.
bool recordsGradFn(std::string_view opName, const BoundArgs& args);

// Where a tensor of a call's arguments is: the argument, and its place in a Tensor[]
// argument (0 for a Tensor).
struct TensorSlot {
    size_t argument = 0;
    size_t item = 0;
};
std::vector<TensorSlot> tensorSlots(const BoundArgs& args);

// What backward through an op without a derivative raises, in PyTorch's words (an op PyTorch
// declares not differentiable names its node torch::autograd::NotImplemented).
std::string noDerivativeMessage(const OpDef& op, const BoundArgs& args);

// The gradient for each slot (undefined where the derivative gives none) from the gradient
// of the call's (first) result. Throws ScriptError when the op has no derivative.
// `beforeRead`, `resultGrads` (DerivativeArgs::grads): see DerivativeArgs.
std::vector<Tensor> slotGradients(const OpDef& op, const BoundArgs& args, const IValue& result, const Tensor& grad,
                                  const std::vector<TensorSlot>& slots,
                                  const std::function<void(std::string_view)>* beforeRead = nullptr,
                                  const std::vector<Tensor>* resultGrads = nullptr);

}  // namespace fusescope
