import torch

torch.manual_seed(0)


def fn(x):
    return x.sum(dim=-2), x.amax(dim=1, keepdim=True), x.var(dim=-2), x.argmin(dim=1), x.mean(dim=(0, 2)), x.sum(dim=[0, 1], keepdim=True)


inputs = (torch.randn(5, 17, 33) + 2,)
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
print(torch.equal(actual[3], expected[3]), actual[3].shape, actual[3].dtype)
print(torch.allclose(actual[4], expected[4], rtol=1e-05, atol=1e-06), actual[4].shape, actual[4].dtype)
print(torch.allclose(actual[5], expected[5], rtol=1e-05, atol=1e-06), actual[5].shape, actual[5].dtype)
