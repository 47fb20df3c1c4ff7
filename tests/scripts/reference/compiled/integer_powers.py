# Integer tensors to integer powers: a negative power is 0 unless the base is 1 or -1.
import torch


def power(a, b):
    return a ** b


base = torch.tensor([2, 3, 1, -1, -1, 5, 0, -2])
exponent = torch.tensor([-3, -1, -5, -3, -2, 0, 2, 3])
print(torch.compile(power)(base, exponent))
print(power(base, exponent))
print(torch.compile(power)(base.int(), exponent.int()))
try:
    print(base ** -1)
except RuntimeError as e:
    print("RuntimeError", e)
