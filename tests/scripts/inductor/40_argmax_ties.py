import torch

torch.manual_seed(0)


def fn(x, y):
    values, indices = torch.max(y, dim=1)
    return x.argmax(dim=-1), x.argmin(dim=0), x.argmax(), x.argmin(), values, indices, y.argmin(dim=-1)


inputs = (torch.randint(0, 4, (300, 257)).float(), torch.randint(0, 3, (8, 33)).float())
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.equal(actual[0], expected[0]), actual[0].shape, actual[0].dtype)
print(torch.equal(actual[1], expected[1]), actual[1].shape, actual[1].dtype)
print(torch.equal(actual[2], expected[2]), actual[2].shape, actual[2].dtype)
print(torch.equal(actual[3], expected[3]), actual[3].shape, actual[3].dtype)
print(torch.allclose(actual[4], expected[4], rtol=1e-05, atol=1e-06), actual[4].shape, actual[4].dtype)
print(torch.equal(actual[5], expected[5]), actual[5].shape, actual[5].dtype)
print(torch.equal(actual[6], expected[6]), actual[6].shape, actual[6].dtype)
