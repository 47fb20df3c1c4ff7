# A function inlined into a compiled one is guarded with its defaults: their type and count at
# the call, each default the call takes where it is used; assigning __defaults__ recompiles.
import torch


def affine(x, scale=2.0, shift=1, clip=None):
    y = x * scale + shift
    return y if clip is None else y.clamp(max=clip)


@torch.compile(backend="eager")
def model(x):
    return affine(x) + affine(x, 3.0, shift=0)


x = torch.linspace(-1.0, 1.0, 4)
print(model(x))
print(model(x))
affine.__defaults__ = (2.0, 5, None)
print(model(x))
