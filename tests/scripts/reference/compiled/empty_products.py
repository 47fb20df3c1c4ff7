# Matrix products over an empty inner dimension sum nothing: zeros.
import torch


def product(a, b):
    return a @ b


def product_of_transposed(a, b):
    return a.t() @ b


def affine(a, b, c):
    return c + a @ b + 1


print(torch.compile(product)(torch.ones(3, 0), torch.ones(0, 4)))
print(torch.compile(product_of_transposed)(torch.ones(0, 3), torch.ones(0, 4)))
print(torch.compile(affine)(torch.ones(2, 0), torch.ones(0, 3), torch.arange(3.0)))
print(torch.compile(product)(torch.ones(2, 3, 0), torch.ones(2, 0, 2)))
print(torch.compile(product)(torch.ones(0, 3), torch.ones(3, 2)).shape)
