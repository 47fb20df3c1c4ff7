# sign of nan, rounding to decimals in float32, and the gradient of clamp at its bounds.
import torch


def sign(x):
    return torch.sign(x)


def round_to_tenths(x):
    return torch.round(x, decimals=1)


def round_to_hundreds(x):
    return torch.round(x, decimals=-2)


def clamped_sum(x):
    return x.clamp(-1.0, 1.0).sum()


def clamped_by_tensors(x, lo, hi):
    return x.clamp(lo, hi).sum()


print(torch.compile(sign)(torch.tensor([float("nan"), -2.0, 0.0, 3.0, -0.0, float("-inf")])))
y = torch.tensor([0.35, 1.15, 2.5, -0.25, 0.05, 2.675])
print(torch.compile(round_to_tenths)(y), round_to_tenths(y))
print(torch.compile(round_to_hundreds)(torch.tensor([150.0, 250.0, -1249.9])))
x = torch.tensor([-2.0, -1.0, 0.0, 1.0, 2.0], requires_grad=True)
clamped_sum(x).backward()
print(x.grad)
x.grad = None
torch.compile(clamped_sum)(x).backward()
print(x.grad)
lo = torch.tensor([-1.0, -1.0, -1.0, 1.5, -3.0], requires_grad=True)
hi = torch.tensor([1.0, 1.0, 1.0, 0.5, -2.0], requires_grad=True)
x.grad = None
clamped_by_tensors(x, lo, hi).backward()
print(x.grad, lo.grad, hi.grad)
x.grad = lo.grad = hi.grad = None
torch.compile(clamped_by_tensors)(x, lo, hi).backward()
print(x.grad, lo.grad, hi.grad)
