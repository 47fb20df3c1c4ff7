#pragma once
// Grad mode, as PyTorch's: while it is on (the default), an op whose tensor inputs require
// grad gives results that require grad too and are not leaves (they carry the name of the
// backward node PyTorch would make, "MulBackward0", in the autograd graph that backward()
// walks: dispatch/autograd_layer.cpp). torch.no_grad(), inference_mode() and
// set_grad_enabled(False) turn it off for their block.

namespace fusescope {

// What changing requires_grad of a computed tensor raises.
inline constexpr const char* kNonLeafRequiresGrad =
    "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
    "subgraph that doesn't require differentiation use var_no_grad = var.detach().";

bool gradEnabled();
void setGradEnabled(bool enabled);

// Sets grad mode for a scope, then puts back what it was.
class GradModeGuard {
public:
    explicit GradModeGuard(bool enabled) : was_(gradEnabled()) { setGradEnabled(enabled); }
    ~GradModeGuard() { setGradEnabled(was_); }
    GradModeGuard(const GradModeGuard&) = delete;
    GradModeGuard& operator=(const GradModeGuard&) = delete;

private:
    bool was_;
};

}  // namespace fusescope
