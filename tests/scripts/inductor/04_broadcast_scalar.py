import torch

torch.manual_seed(0)


def fn(x, s):
    return (x - 1.5) * 2.5 / 4 + 7 - x * s + torch.maximum(x, s)


inputs = (torch.randn(7, 13), torch.tensor(0.25))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
