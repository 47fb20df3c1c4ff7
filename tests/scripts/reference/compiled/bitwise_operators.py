# & | ^ ~ on tensors are bitwise, as PyTorch's: on integer tensors they combine bits (they
# were logical_and/or/xor before, which gave booleans: 6 & 3 came out True, not 2).
import torch


def masks(a, b, m):
    return (a & b, a | b, a ^ b, ~a, a & 3, 12 | a, m & (a > 2), m | ~m, m ^ (b > 1))


a = torch.tensor([6, 5, -4, 0])
b = torch.tensor([3, 1, 7, -1])
m = torch.tensor([True, False, True, False])
for t in masks(a, b, m):
    print(t)
compiled = torch.compile(masks)
for t in compiled(a, b, m):
    print(t)
try:
    torch.ones(2) & torch.ones(2)
except RuntimeError as e:
    print("RuntimeError:", e)
