# An int argument that changes between calls: the recompile makes it a SymInt (automatic
# dynamic, guarded by its type only), so later values reuse that graph; a comparison on it is
# guarded, and a use that needs its value (range) fixes it again. Items of a list argument are
# made dynamic alike (an int's and a float's: L['sizes'][1], L['scales'][0]).
import torch


def scaled(x, n):
    return x * n + (n - 1)


def clipped(x, n):
    if n > 5:
        return x * 5
    return x * n


def summed(x, n):
    total = x
    for i in range(n):
        total = total + i
    return total


compiled_scaled, compiled_clipped, compiled_summed = torch.compile(scaled), torch.compile(clipped), torch.compile(summed)
x = torch.arange(4.0)
for n in [2, 3, 4, 7, 3]:
    print(compiled_scaled(x, n), compiled_clipped(x, n))
for n in [2, 3, 4]:
    print(compiled_summed(x, n))


@torch.compile(backend="eager")
def from_lists(x, sizes, scales):
    return x.reshape(sizes[0], -1) * sizes[1] + scales[0]


for n in [3, 4, 5]:
    print(from_lists(torch.ones(12), [2, n], [0.5 * n]))
