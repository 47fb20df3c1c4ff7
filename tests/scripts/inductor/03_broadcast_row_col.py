import torch

torch.manual_seed(0)


def fn(x, row, col):
    return (x + row) * col - row / (col * col + 1)


inputs = (torch.randn(8, 33), torch.randn(33), torch.randn(8, 1))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
