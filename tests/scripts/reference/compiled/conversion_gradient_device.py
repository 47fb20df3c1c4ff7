# A conversion that keeps the dtype (x.float() of a float tensor, type_as), traced by AOT
# Autograd: its gradient once went to the meta device of the trace's stand-in tensors, so
# a parameter's .grad could not be read and an optimizer step silently skipped it
# (karpathy/llama2.c's RMSNorm). Found against PyTorch 2.15.
import torch

w = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)


@torch.compile
def rms_norm(x):
    return (x.float() * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5)).type_as(x).sum()


rms_norm(w).backward()
print(w.grad.device, w.grad)
with torch.no_grad():
    w -= 0.5 * w.grad
print(w, round(rms_norm(w).item(), 4))
