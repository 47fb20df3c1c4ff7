# The four kinds of graph break: print, a branch on a tensor value, an explicit
# graph_break(), and a call that turns a tensor into a Python number.
import torch


@torch.compile(backend="eager")
def with_print(x):
    y = x + 1
    print("y is", y)
    return y * 2


@torch.compile(backend="eager")
def with_branch(x):
    if x.sum() > 0:
        return x * 2
    return x * 3


@torch.compile(backend="eager")
def with_explicit_break(x):
    x = x * 2
    torch._dynamo.graph_break()
    return x * 3


@torch.compile(backend="eager")
def with_item(x):
    n = x.max().item()
    return x / n


v = torch.tensor([1.0, -2.0, 4.0])
print(with_print(v))
print(with_branch(v))
print(with_branch(-v))
print(with_explicit_break(v))
print(with_item(v))
