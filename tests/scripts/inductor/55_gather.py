import torch


# gather compiles to a load at the position its index holds (index checked against the
# extent): along each dim, an index smaller than self in the other dims, a transposed self,
# int32 indices, and a gather feeding pointwise work (cross_entropy's pattern); then an
# index out of range, which the compiled code reports at the gather's line.
def fn(x, i0, i1, t, i32, logits, target):
    picked = logits.log_softmax(1).gather(1, target.unsqueeze(1)).squeeze(1)
    return (x.gather(0, i0), x.gather(1, i1), x.gather(-1, i1[:, :2]), t.t().gather(1, i1[:2]), x.gather(1, i32),
            -picked.mean())


x = torch.arange(20.0).reshape(4, 5).sin()
i0 = torch.tensor([[3, 0, 1, 2, 3], [0, 0, 2, 1, 1]])
i1 = torch.tensor([[4, 0, 1], [2, 2, 3], [0, 4, 4], [1, 3, 0]])
t = torch.arange(30.0).reshape(6, 5).cos()
i32 = i1.to(torch.int32)
logits = torch.linspace(-2.0, 2.0, 24).reshape(6, 4)
target = torch.tensor([0, 3, 1, 2, 2, 0])
expected = fn(x, i0, i1, t, i32, logits, target)
actual = torch.compile(fn)(x, i0, i1, t, i32, logits, target)
for a, e in zip(actual, expected):
    print(torch.allclose(a, e), a.shape)


def out_of_range(x, i):
    return x.gather(1, i) * 2


try:
    torch.compile(out_of_range)(x, torch.tensor([[0], [5], [1], [2]]))
except RuntimeError as e:
    print(True, type(e).__name__)
