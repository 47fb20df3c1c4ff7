import torch


# Matrix operands whose strides BLAS cannot take as they are: a transposed column (a row
# whose leading stride is 1), a broadcast row (stride 0 between rows), a size-1 column.
def fn(x, w, r, c):
    s = x.sum(1, keepdim=True)
    return torch.mm(s.t(), w), torch.mm(r.expand(5, 8), w), torch.mm(w.t(), c.expand(8, 1))


x = torch.linspace(-1.0, 1.0, 64).reshape(8, 8)
w = torch.linspace(0.0, 1.0, 32).reshape(8, 4)
r = torch.linspace(-2.0, 2.0, 8).reshape(1, 8)
c = torch.linspace(0.5, 1.5, 1).reshape(1, 1)
expected = fn(x, w, r, c)
actual = torch.compile(fn)(x, w, r, c)
for a, e in zip(actual, expected):
    print(torch.allclose(a, e, rtol=1e-05, atol=1e-06), a.shape, a.dtype)
