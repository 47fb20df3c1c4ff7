# Reductions without an identity over empty tensors: an empty result where every reduced dim
# has elements, PyTorch's errors where one has none or no dim is given.
import torch


def largest(x):
    return x.amax(1), x.amin(1), x.argmax(1), x.max(1).values


empty_rows = torch.zeros(0, 4)
print(torch.compile(largest)(empty_rows))
print(largest(empty_rows))
for reduce in [lambda: torch.zeros(4, 0).amax(1), lambda: empty_rows.amax(), lambda: torch.zeros(4, 0).max(1), lambda: torch.zeros(0).max(),
               lambda: torch.zeros(4, 0).argmin(1), lambda: empty_rows.amin((0, 1))]:
    try:
        print(reduce())
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
