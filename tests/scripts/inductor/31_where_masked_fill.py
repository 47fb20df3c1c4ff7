import torch

torch.manual_seed(0)


def fn(x, y, m):
    a = torch.where(x > 0, x, y)
    b = x.masked_fill(x < 0, 0.0)
    c = torch.where(m, x, 0.0)
    d = y.masked_fill(m, -1.5)
    e = torch.where(m, 1, 0)
    return a, b, c, d, e


inputs = (torch.randn(8, 33), torch.randn(8, 33), torch.randn(33) > 0)
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
print(torch.allclose(actual[3], expected[3], rtol=1e-05, atol=1e-06), actual[3].shape, actual[3].dtype)
print(torch.equal(actual[4], expected[4]), actual[4].shape, actual[4].dtype)
