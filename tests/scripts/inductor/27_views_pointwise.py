import torch

torch.manual_seed(0)


def fn(x, y):
    a = x.view(64, 32) * 2 + y.reshape(64, 32)
    b = torch.exp(x.reshape(4, -1)) - 1
    c = torch.flatten(x, 1) + torch.flatten(y, 1)
    d = x.unsqueeze(1) * y[0].unsqueeze(0).unsqueeze(0)
    e = x[:, :1, :].squeeze(1) + 1
    f = x.transpose(1, 2) * 3 - y.transpose(1, 2)
    return a, b, c, d, e, f


inputs = (torch.randn(4, 16, 32), torch.randn(4, 16, 32))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
print(torch.allclose(actual[3], expected[3], rtol=1e-05, atol=1e-06), actual[3].shape, actual[3].dtype)
print(torch.allclose(actual[4], expected[4], rtol=1e-05, atol=1e-06), actual[4].shape, actual[4].dtype)
print(torch.allclose(actual[5], expected[5], rtol=1e-05, atol=1e-06), actual[5].shape, actual[5].dtype)
