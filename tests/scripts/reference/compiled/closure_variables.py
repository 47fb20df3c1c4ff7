# A compiled function's free variables are its frame's locals (Python 3.11): a closure's tensor,
# int and string are guarded as L['name'], so calling another closure of the same code
# recompiles; keywords passed on with **kwargs are guarded by their count and values.
import torch


def scaled_by(scale, label):
    offset = torch.tensor([0.5, -0.5])

    def apply(x, **kwargs):
        return combine(x * scale + offset, f"{label}", **kwargs)

    return apply


def combine(y, name, mode):
    return y + 1 if mode == name else y


fn = torch.compile(scaled_by(3, "shift"), backend="eager")
x = torch.ones(2)
print(fn(x, mode="shift"))
print(fn(x, mode="keep"))
print(fn(x, mode="keep"))
other = torch.compile(scaled_by(2, "keep"), backend="eager")
print(other(x, mode="keep"))
