# torch functions' out=: the result written into the tensor given (cast to its dtype), and
# PyTorch's errors; memory formats as *_like, clone and contiguous take them.
import torch

a = torch.tensor([1.0, 5.0, -2.0])
m = torch.zeros(3)
r = torch.maximum(m, a, out=m)
print(m, r is m)
d = torch.zeros(3, dtype=torch.float64)
torch.add(a, 1, out=d)
print(d)
try:
    torch.add(a, a, out=torch.empty(3, dtype=torch.long))
except RuntimeError as e:
    print("RuntimeError:", e)
w = torch.ones(3, requires_grad=True)
try:
    torch.mul(w, 2, out=torch.zeros(3))
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    z = torch.zeros(3)
    torch.mul(w, 2, out=z)
    print(z)

x = torch.arange(6.0).reshape(2, 3).t()
print(torch.preserve_format, torch.contiguous_format, torch.channels_last, type(torch.preserve_format))
print(torch.zeros_like(x, memory_format=torch.preserve_format).stride(), torch.ones_like(x, memory_format=torch.contiguous_format).stride())
print(x.clone().stride(), x.clone(memory_format=torch.contiguous_format).stride(), x.contiguous(memory_format=torch.contiguous_format).stride())
print(torch.full_like(x, 7.0, memory_format=torch.contiguous_format))
t = torch.tensor([1.0, 2.0])
print(t.lerp_(torch.tensor([3.0, 5.0]), 0.75), t.addcmul_(t, t, value=0.5), t.addcdiv_(t, t + 1, value=-0.25))
print(torch.accelerator.current_accelerator(check_available=True), torch.accelerator.is_available())
