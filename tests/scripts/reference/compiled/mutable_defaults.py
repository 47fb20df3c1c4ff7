# A list default a torch op reads whole (x.sum(dims)) is guarded item by item: changing it in
# place recompiles rather than running the graph made for the old dims.
import torch


def reduce(a, dims=[0], k=2):
    return a.sum(dims) * k


@torch.compile(backend="eager")
def f(x):
    return reduce(x)


x = torch.ones(2, 3)
print(f(x))
reduce.__defaults__[0][0] = 1
print(f(x))
reduce.__defaults__ = ([0], 5)
print(f(x))
