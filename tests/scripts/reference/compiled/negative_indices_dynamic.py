# Indices from the end of a dim whose size changes between calls (the recompile makes it
# dynamic): x[:, -1], narrow from -2, x[:, -2:-1], select -3. Once gave the example size's
# columns at every size, silently: the lowering counted from the end of the dim as it was when
# compiled. select(-3) holds for sizes of 3 and more: guarded so, as PyTorch does.
import torch


def ends(x):
    return x[:, -1] * 2, x.narrow(1, -2, 2) + 1, x[:, -2:-1] * 3, x.select(1, -3), x[-1]


compiled = torch.compile(ends)
for n in (6, 7, 9):
    x = torch.arange(3.0 * n).reshape(3, n).clone()
    print(n, *compiled(x))
