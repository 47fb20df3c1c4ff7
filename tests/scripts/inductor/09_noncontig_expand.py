import torch

torch.manual_seed(0)


def fn(a, b, c):
    return a * b + c.expand(8, 33)


inputs = (torch.randn(1, 33).expand(8, 33), torch.randn(8, 33), torch.randn(8, 1))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
