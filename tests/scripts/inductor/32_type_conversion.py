import torch

torch.manual_seed(0)


def fn(x, a, b):
    f = a.float() * 0.5 + x
    i = (x * 10).to(torch.int64)
    q = a / b
    m = (x > 0).float() + (a > 0).to(torch.int32)
    s = a + x
    return f, i, q, m, s


a = torch.randint(-50, 50, (8, 33))
b = torch.randint(1, 20, (8, 33))
inputs = (torch.randn(8, 33), a, b)
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.equal(actual[1], expected[1]), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
print(torch.allclose(actual[3], expected[3], rtol=1e-05, atol=1e-06), actual[3].shape, actual[3].dtype)
print(torch.allclose(actual[4], expected[4], rtol=1e-05, atol=1e-06), actual[4].shape, actual[4].dtype)
