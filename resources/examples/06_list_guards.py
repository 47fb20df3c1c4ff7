# Python values are guarded too: list lengths and the constants the code reads.
# Run with: fusescope-cli run 06_list_guards.py --logs guards,recompiles
import torch


def accumulate(x, ys, zs):
    for y, z in zip(ys, zs):
        x = x + y * z
    return x


opt = torch.compile(accumulate, backend="eager")
x = torch.tensor([1.0])
ys = [1.0, 2.0]
zs = [3.0]
print(opt(x, ys, zs))
print(opt(x, ys[:1], zs))
