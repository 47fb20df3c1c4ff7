import torch

torch.manual_seed(0)


def fn(a, b):
    return a.sum(dim=-1), b.amax(dim=1), (a * 2).mean(dim=0, keepdim=True)


x = torch.randn(33, 8)
y = torch.randn(4, 16, 32)
inputs = (x.t(), y.permute(0, 2, 1))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
