import torch

torch.manual_seed(0)


def fn(x):
    p = torch.abs(x) + 0.1
    a = -x + torch.reciprocal(p) - torch.rsqrt(p)
    b = torch.log(p) + torch.log1p(p) - torch.expm1(x * 0.5)
    c = torch.erf(x) + torch.cos(x) * torch.sign(x)
    d = torch.floor(x * 3) + torch.ceil(x * 3) - torch.round(x * 3)
    e = torch.square(x) + torch.pow(x, 2) + torch.pow(p, 0.5) + p ** 1.5
    return a, b, c, d, e


inputs = (torch.randn(7, 45),)
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
print(torch.allclose(actual[3], expected[3], rtol=1e-05, atol=1e-06), actual[3].shape, actual[3].dtype)
print(torch.allclose(actual[4], expected[4], rtol=1e-05, atol=1e-06), actual[4].shape, actual[4].dtype)
