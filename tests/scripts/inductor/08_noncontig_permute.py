import torch

torch.manual_seed(0)


def fn(a, b):
    return torch.relu(a) + b.permute(2, 0, 1) * 2


x = torch.randn(4, 16, 32)
inputs = (x.permute(2, 0, 1), torch.randn(4, 16, 32))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
