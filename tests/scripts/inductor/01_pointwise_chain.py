import torch

torch.manual_seed(0)


def fn(x):
    a = x * 2 + 1
    a = torch.sin(a)
    a = torch.exp(a)
    a = torch.relu(a - 1.5)
    a = torch.tanh(a)
    a = a * 3
    a = torch.abs(a - 0.5)
    a = torch.sqrt(a)
    return torch.sigmoid(a)


inputs = (torch.randn(8, 33),)
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
