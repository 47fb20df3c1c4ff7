# Reading and assigning through bool masks (PyTorch's index and index_put_): a mask over
# every dim or over the leading dims, a number or a 0-d tensor assigned, gradients through
# both, the errors PyTorch raises, and both in a compiled function, whose mask read breaks
# the graph (how many rows it gives depends on the data) (PyTorch 2.15 printed the .out).
import torch

x = torch.arange(12.0).reshape(3, 4)
mask = x % 3 == 0
print(x[mask], x[mask].shape)
rows = torch.tensor([True, False, True])
print(x[rows], x[torch.tensor(True)].shape, x[torch.tensor(False)].shape)

logits = torch.linspace(-1.0, 1.0, 8).reshape(2, 4)
top = torch.topk(logits, 2).values
logits[logits < top[:, [-1]]] = -float("Inf")
print(logits, torch.softmax(logits, dim=-1))
y = x.clone()
y[rows] = torch.tensor(-1.0)
y[y > 8] = 0
print(y)

w = torch.tensor([0.5, -1.0, 2.0, 3.0], requires_grad=True)
picked = w[w > 0]
print(picked, picked.grad_fn.name())
picked.sum().backward()
print(w.grad)
v = w * 2
v[v < 0] = 0.0
v.sum().backward()
print(w.grad)

for bad in [torch.tensor([True, False]), torch.ones(3, 5, dtype=torch.bool)]:
    try:
        x[bad]
    except IndexError as e:
        print("IndexError:", e)
    try:
        x[bad] = 1.0
    except IndexError as e:
        print("IndexError:", e)


@torch.compile
def clamp_and_total(t):
    t = t.clone()
    t[t < 0] = 0.0
    return t * 3 + t[t > 1].sum()


print(clamp_and_total(torch.tensor([-1.0, 2.0, -3.0, 4.0])))
