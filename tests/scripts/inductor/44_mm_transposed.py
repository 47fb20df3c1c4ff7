import torch

torch.manual_seed(0)


def fn(a, b, c, d):
    return torch.mm(a.t(), b), torch.tanh(b.t() @ a[:, ::2]) + 1, torch.matmul(c, d) * 2


inputs = (torch.randn(33, 8), torch.randn(33, 17), torch.randn(3, 5, 33), torch.randn(3, 33, 6))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
