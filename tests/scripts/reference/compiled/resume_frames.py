# Graph breaks in a compiled function's own code: PyTorch goes on after each in a resume
# function (torch_dynamo_resume_in_f_at_N), a frame of its own with its own guards and cache.
# A value the code after the break reads (a local, a value left on the stack) is that frame's
# input; a change there recompiles only the resume function (PyTorch 2.15 printed the .out).
import torch


@torch.compile(backend="eager")
def scale_then_report(x, factor):
    y = x * 2
    print("scaled", y.shape)
    return y * factor


print(scale_then_report(torch.ones(3), 2.0))
print(scale_then_report(torch.ones(3), 3.0))
print(scale_then_report(torch.ones(3, 2), 3.0))


@torch.compile(backend="eager")
def pending_operands(t, bias):
    u = t + 1
    return u * 2 + u[u > 1].sum() + bias


print(pending_operands(torch.tensor([0.0, 1.0, 2.0]), 1))
print(pending_operands(torch.tensor([0.0, 1.0, 2.0, 3.0]), 1))


@torch.compile(backend="eager")
def branch_twice(x, scale):
    if x.sum() > 0:
        x = x * scale
    else:
        x = x - scale
    if x.mean() > 1:
        return x.exp()
    return x.cos()


print(branch_twice(torch.ones(2), 3.0))
print(branch_twice(-torch.ones(2), 3.0))
print(branch_twice(torch.ones(2), 0.5))


@torch.compile(backend="eager")
def item_then_loop(x, steps):
    n = x.max().item()
    for _ in range(steps):
        x = x / n
    return x


print(item_then_loop(torch.tensor([1.0, 4.0]), 2))
print(item_then_loop(torch.tensor([1.0, 8.0]), 2))


# A size read before the break is an int the resume function gets: specialized, then dynamic
# on its recompile; dynamic at once under dynamic=True.
@torch.compile(dynamic=True, backend="eager")
def ones_always_dynamic(x):
    n = x.shape[0]
    print("length", n)
    return torch.ones(n) * 2


@torch.compile(backend="eager")
def ones_automatic(x):
    n = x.shape[0]
    print("length", n)
    return torch.ones(n) * 2


for k in [3, 5, 5, 7]:
    print(ones_always_dynamic(torch.zeros(k)).shape, ones_automatic(torch.zeros(k)).shape)
