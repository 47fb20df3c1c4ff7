import torch

torch.manual_seed(0)


def fn(x, y):
    return torch.sin(x) * y + torch.cos(y) - x / (1 + y * y)


inputs = (torch.randn(300, 257), torch.randn(300, 257))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
