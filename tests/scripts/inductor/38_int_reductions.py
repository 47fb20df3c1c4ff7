import torch

torch.manual_seed(0)


def fn(a, b):
    return a.sum(dim=1), a.amax(dim=0), b.sum(), b.amin(dim=-1, keepdim=True), a.prod(dim=1), (a > 0).sum(dim=0)


inputs = (torch.randint(-5, 6, (8, 13)), torch.randint(-50, 50, (9, 35), dtype=torch.int32))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.equal(actual[0], expected[0]), actual[0].shape, actual[0].dtype)
print(torch.equal(actual[1], expected[1]), actual[1].shape, actual[1].dtype)
print(torch.equal(actual[2], expected[2]), actual[2].shape, actual[2].dtype)
print(torch.equal(actual[3], expected[3]), actual[3].shape, actual[3].dtype)
print(torch.equal(actual[4], expected[4]), actual[4].shape, actual[4].dtype)
print(torch.equal(actual[5], expected[5]), actual[5].shape, actual[5].dtype)
