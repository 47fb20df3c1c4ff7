# Why a function recompiles: every failing guard of every cache entry is reported.
# Run with: fusescope-cli run 03_recompiles.py --logs recompiles_verbose
import torch


def add_four(a):
    return torch.add(a, 4)


opt = torch.compile(add_four, backend="eager", dynamic=False)
a = torch.arange(60.0).view(3, 4, 5)
print(opt(a).sum())
print(opt(a[0:2]).sum())
print(opt(a.to(torch.float64)).sum())
print(opt(a[0]).sum())
