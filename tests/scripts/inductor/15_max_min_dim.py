import torch

torch.manual_seed(0)


def fn(x):
    values, indices = torch.max(x, dim=1)
    kv, ki = x.max(dim=-1, keepdim=True)
    mv, mi = torch.min(x, dim=0)
    return values, indices, kv, ki, mv, mi


inputs = (torch.randn(8, 33),)
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.equal(actual[1], expected[1]), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
print(torch.equal(actual[3], expected[3]), actual[3].shape, actual[3].dtype)
print(torch.allclose(actual[4], expected[4], rtol=1e-05, atol=1e-06), actual[4].shape, actual[4].dtype)
print(torch.equal(actual[5], expected[5]), actual[5].shape, actual[5].dtype)
