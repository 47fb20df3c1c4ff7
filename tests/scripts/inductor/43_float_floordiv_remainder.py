import torch

torch.manual_seed(0)


def fn(x, y, a, b):
    return torch.floor_divide(x, y), torch.remainder(x, y), x % 0.7, x // 0.3, a / b, (a * -1) / 3


x = torch.randn(8, 33) * 5
y = (torch.rand(8, 33) + 0.5) * (torch.randint(0, 2, (8, 33)) * 2 - 1)
a = torch.randint(-50, 50, (8, 33))
b = torch.randint(1, 20, (8, 33)) * (torch.randint(0, 2, (8, 33)) * 2 - 1)
inputs = (x, y, a, b)
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
print(torch.allclose(actual[3], expected[3], rtol=1e-05, atol=1e-06), actual[3].shape, actual[3].dtype)
print(torch.allclose(actual[4], expected[4], rtol=1e-05, atol=1e-06), actual[4].shape, actual[4].dtype)
print(torch.allclose(actual[5], expected[5], rtol=1e-05, atol=1e-06), actual[5].shape, actual[5].dtype)
