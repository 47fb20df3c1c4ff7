import torch

torch.manual_seed(0)


def fn(x):
    return x.prod(dim=1), x.prod(dim=-1, keepdim=True), torch.prod(x, 0), x.prod()


inputs = (torch.rand(5, 7) * 0.5 + 0.75,)
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
print(torch.allclose(actual[3], expected[3], rtol=1e-05, atol=1e-06), actual[3].shape, actual[3].dtype)
