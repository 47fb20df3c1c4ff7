import torch

torch.manual_seed(0)


def fn(a, b):
    return a + b, a * b - 3, torch.floor_divide(a, b), torch.remainder(a, b), a // 7, a % -5, -a + 2 * b


a = torch.randint(-50, 50, (8, 33))
b = torch.randint(1, 20, (8, 33)) * (torch.randint(0, 2, (8, 33)) * 2 - 1)
inputs = (a, b)
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.equal(actual[0], expected[0]), actual[0].shape, actual[0].dtype)
print(torch.equal(actual[1], expected[1]), actual[1].shape, actual[1].dtype)
print(torch.equal(actual[2], expected[2]), actual[2].shape, actual[2].dtype)
print(torch.equal(actual[3], expected[3]), actual[3].shape, actual[3].dtype)
print(torch.equal(actual[4], expected[4]), actual[4].shape, actual[4].dtype)
print(torch.equal(actual[5], expected[5]), actual[5].shape, actual[5].dtype)
print(torch.equal(actual[6], expected[6]), actual[6].shape, actual[6].dtype)
