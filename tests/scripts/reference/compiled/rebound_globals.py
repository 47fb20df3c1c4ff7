# A global function, a module's function and a builtin the compiled code calls are guarded by
# id (a Python function by its __code__): rebinding one recompiles, with that guard as the reason.
import math

import torch


def helper(x):
    return x + 1


def f(x):
    return helper(x) * 2 + torch.sigmoid(x).sum() + abs(-2) + math.floor(2.5)


compiled = torch.compile(f, backend="eager")
print(compiled(torch.ones(2)))


def helper(x):  # noqa: F811 - the rebinding is the point
    return x - 1


print(compiled(torch.ones(2)))
print(compiled(torch.ones(2)))
