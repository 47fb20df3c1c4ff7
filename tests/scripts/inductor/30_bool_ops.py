import torch

torch.manual_seed(0)


def fn(x, y):
    gt = x > y
    le = x <= 0.5
    eq = torch.eq(torch.round(x), torch.round(y))
    ne = x != y
    both = torch.logical_and(gt, le)
    either = torch.logical_or(gt, eq)
    neither = torch.logical_not(either)
    mixed = (x > 0) & (y < 0) | ~(x < -1)
    return gt, le, eq, ne, both, either, neither, mixed


inputs = (torch.randn(8, 33), torch.randn(8, 33))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.equal(actual[0], expected[0]), actual[0].shape, actual[0].dtype)
print(torch.equal(actual[1], expected[1]), actual[1].shape, actual[1].dtype)
print(torch.equal(actual[2], expected[2]), actual[2].shape, actual[2].dtype)
print(torch.equal(actual[3], expected[3]), actual[3].shape, actual[3].dtype)
print(torch.equal(actual[4], expected[4]), actual[4].shape, actual[4].dtype)
print(torch.equal(actual[5], expected[5]), actual[5].shape, actual[5].dtype)
print(torch.equal(actual[6], expected[6]), actual[6].shape, actual[6].dtype)
print(torch.equal(actual[7], expected[7]), actual[7].shape, actual[7].dtype)
