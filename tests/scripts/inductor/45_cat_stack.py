import torch

torch.manual_seed(0)


def fn(x, y):
    return torch.cat([x, y * 2], dim=1), torch.stack([x, y + 1]), torch.cat((x, y), dim=0).sum(dim=-1)


inputs = (torch.randn(8, 33), torch.randn(8, 33))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
