import torch

torch.manual_seed(0)


def fn(a, b, bias):
    return torch.relu(torch.mm(a, b) + bias)


inputs = (torch.randn(8, 33), torch.randn(33, 17), torch.randn(17))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
