import torch

torch.manual_seed(0)


def fn(a, b):
    return torch.exp(a) * 0.5 + a + b.t()


x = torch.randn(33, 8)
inputs = (x.t(), torch.randn(33, 8))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
