#pragma once
// The backward pass (PyTorch's autograd engine, on one thread): from results and their
// gradients, through the backward nodes in an order where every node runs after all the
// nodes that feed it a gradient, each gradient summed where paths meet.

#include <vector>

#include "core/tensor.h"

namespace fusescope {

struct BackwardOptions {
    bool retainGraph = false;  // keep saved tensors for another backward
    // torch.autograd.grad: the tensors whose gradients to return (their .grad untouched);
    // empty: tensor.backward(), which adds into the .grad of leaves (and retaining tensors).
    std::vector<Tensor> inputs;
    bool allowUnused = false;  // an input the results do not depend on gets an undefined gradient, not an error
};

// `grads[i]` is the gradient of `roots[i]` (same shape). Returns the gradients of
// `options.inputs` in order (none for backward()). Throws ScriptError as PyTorch does: a
// root that does not require grad, a second backward through freed saved tensors, an op
// without a derivative.
std::vector<Tensor> runBackward(const std::vector<Tensor>& roots, const std::vector<Tensor>& grads, const BackwardOptions& options);

// backward()'s gradient argument when none is given: ones for a one-element result, else
// PyTorch's "grad can be implicitly created only for scalar outputs".
Tensor implicitGradient(const Tensor& root);

}  // namespace fusescope
