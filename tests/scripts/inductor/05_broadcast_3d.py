import torch

torch.manual_seed(0)


def fn(a, b, c):
    return a + b * c - torch.tanh(a * c)


inputs = (torch.randn(4, 1, 32), torch.randn(1, 16, 1), torch.randn(32))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
