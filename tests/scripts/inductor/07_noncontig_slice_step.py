import torch

torch.manual_seed(0)


def fn(a, b):
    return a * a + 1 - b[:, ::3]


x = torch.randn(16, 66)
inputs = (x[::2, 1::3], torch.randn(8, 66))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
