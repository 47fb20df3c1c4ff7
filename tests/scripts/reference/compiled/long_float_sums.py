# Float sums over more than 4096 elements: Inductor's C++ code sums them in chunks (its
# cascade-sum helper), choosing so from a dynamic size's value now and guarding that choice:
# a size on the other side of 4096 recompiles. Comparisons that bound a size print in the
# order of the sizes' symbols. A slice's size that may be 1 (s - 1) is guarded not to be, as
# AOT Autograd's contiguity check does, raising the range's lower bound.
import torch


def column_sums(x):
    return x.sum(0)


def total(x):
    return x.sum()


def row_sums(x):
    return (x * 2).sum(1)


def rest_mean(x):
    return x[1:].sum() / (x.shape[0] - 1)


def bounded(x):
    if x.shape[0] < 5:
        return x * 2
    if x.shape[1] > 4:
        return x + 1
    return x - 1


torch.manual_seed(0)
for fn in [column_sums, total, row_sums]:
    compiled = torch.compile(fn, dynamic=True)
    for n in [5000, 9000, 3000, 100]:
        x = torch.rand(n, 7) + 100
        if fn is row_sums:
            x = x.t().contiguous()
        got, expected = compiled(x), fn(x.double())
        print(fn.__name__, n, got.shape, torch.allclose(got.double(), expected, rtol=1e-5))

compiled = torch.compile(rest_mean, dynamic=True)
for n in [4, 6, 2, 5000]:
    print(n, compiled(torch.arange(float(n))).item())

compiled = torch.compile(bounded, dynamic=True)
for shape in [(3, 6), (4, 7), (6, 3)]:
    print(shape, compiled(torch.ones(shape)).sum().item())
