# Inputs that are views of one tensor, one of them changed in place: the other must read
# the changed values, as eager does.
import torch


def add_then_read(a, b):
    a.add_(1)
    return b * 2


base = torch.arange(10.0)
print(torch.compile(add_then_read)(base[2:6], base[4:8]), base)


def scale_rows(a, b):
    a.mul_(2)
    return a + b


grid = torch.arange(16.0).reshape(4, 4)
print(torch.compile(scale_rows)(grid[0], grid[:, 0]), grid)


def copy_from(a, b):
    a.copy_(b)
    return a


x = torch.arange(5.0)
print(torch.compile(copy_from)(x[1:4], x[:3]), x)
# Eagerly, PyTorch refuses that copy: the source overlaps the destination.
x = torch.arange(5.0)
try:
    x[1:4].copy_(x[:3])
except RuntimeError as e:
    print("RuntimeError", e)
print(x[1:4].copy_(x[1:4]), x[:2].copy_(x[3:]), x)
