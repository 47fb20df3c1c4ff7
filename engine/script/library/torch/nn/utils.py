# torch.nn.utils for Fusescope scripts.
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    # The 2-norm of all gradients together (the norm of each one's norm); each gradient scaled
    # down in place when it is above max_norm. Returns that total norm.
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if norm_type != 2.0:
        raise NotImplementedError("clip_grad_norm_ with a norm_type other than 2 is not supported by Fusescope yet")
    total_norm = torch.stack([g.pow(2).sum().sqrt() for g in grads]).pow(2).sum().sqrt()
    if error_if_nonfinite and (torch.isnan(total_norm) or torch.isinf(total_norm)):
        raise RuntimeError(f"The total norm of order {float(norm_type)} for gradients from `parameters` is non-finite, "
                           "so it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(clip_coef_clamped)
    return total_norm
