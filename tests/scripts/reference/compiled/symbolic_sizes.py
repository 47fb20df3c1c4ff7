# Sizes read into Python ints (SymInts): after a size change the dim is dynamic, and the ints
# read from it stay symbolic where the graph can compute them (a view's size, arithmetic,
# arange's end, a slice's end within its table), are guarded where the code compares them,
# and specialize where read as a plain int (range), each as PyTorch 2.15 does it.
import torch


def viewed(x):
    return x.view(x.shape[0], 1) * 2


def looped(x):
    total = x[0]
    for i in range(1, x.shape[0]):
        total = total + x[i]
    return total


def branched(x):
    if x.shape[0] > 4:
        return x * 2
    return x + (x.size(0) - 1)


def sliced(x):
    return x + table[: x.shape[0]].sum()


def positions(tokens, table):
    batch, time = tokens.shape
    if time > 8:
        raise ValueError(f"{time} tokens are more than 8")
    return table[tokens] + torch.arange(0, time).float() * (time // 2)


compiled_viewed, compiled_looped, compiled_branched = torch.compile(viewed), torch.compile(looped), torch.compile(branched)
for n in [3, 4, 4, 5]:
    print(compiled_viewed(torch.ones(n)).shape, compiled_looped(torch.arange(float(n))))
for n in [3, 4, 5, 6, 2]:
    print(compiled_branched(torch.arange(float(n))))
table = torch.arange(10.0)
compiled_sliced = torch.compile(sliced)
for n in [3, 4, 5, 11, 12, 10]:
    print(compiled_sliced(torch.zeros(n)))
compiled_positions = torch.compile(positions)
for time in [5, 3, 4, 2, 7]:
    print(compiled_positions(torch.arange(2 * time).reshape(2, time) % 10, table))
