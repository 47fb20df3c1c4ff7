import torch

torch.manual_seed(0)


def fn(x):
    centered = x - x.mean(dim=-1, keepdim=True)
    scaled = centered / torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=False) + 1e-5)
    return centered, scaled


inputs = (torch.randn(8, 33),)
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
