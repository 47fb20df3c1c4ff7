# globals() read and written through (a registry of functions, as PyTorch's optimizer.py
# keeps one), and PEP 604 unions of classes as type aliases and in isinstance.
import torch


def helper():
    return "helper"


g = globals()
print("helper" in g, g["helper"](), g.get("missing", "default"))
g["made_here"] = 42
print(made_here)


def register(fn):
    globals()["registered_" + fn.__name__] = fn
    return fn


@register
def square(x):
    return x * x


print(registered_square(7), g.pop("made_here"), "made_here" in g)
try:
    g["nothing"]
except KeyError as e:
    print("KeyError", e)


class Point:
    pass


MaybeInt = int | None
Number = int | float | int
print(MaybeInt, Number, type(MaybeInt), MaybeInt.__args__)
print(Point | None, None | Point, torch.Tensor | None)
print(isinstance(3, MaybeInt), isinstance(None, MaybeInt), isinstance("x", MaybeInt), isinstance(2.5, Number))
print(issubclass(bool, MaybeInt), issubclass(str, Number))
DeviceDict = dict[tuple[torch.device, torch.dtype] | None, torch.Tensor]
print(DeviceDict is not None)
