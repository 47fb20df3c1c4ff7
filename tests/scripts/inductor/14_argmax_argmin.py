import torch

torch.manual_seed(0)


def fn(x):
    return x.argmax(dim=1), x.argmin(dim=0, keepdim=True), torch.argmax(x, dim=-1, keepdim=True), x.argmin(dim=-1), x.argmax(), x.argmin()


inputs = (torch.randn(8, 33),)
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.equal(actual[0], expected[0]), actual[0].shape, actual[0].dtype)
print(torch.equal(actual[1], expected[1]), actual[1].shape, actual[1].dtype)
print(torch.equal(actual[2], expected[2]), actual[2].shape, actual[2].dtype)
print(torch.equal(actual[3], expected[3]), actual[3].shape, actual[3].dtype)
print(torch.equal(actual[4], expected[4]), actual[4].shape, actual[4].dtype)
print(torch.equal(actual[5], expected[5]), actual[5].shape, actual[5].dtype)
