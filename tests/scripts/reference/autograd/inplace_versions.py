# In-place ops under autograd: each bumps the version counter its views share; a node whose
# saved tensor changed since raises PyTorch's error; an in-place op on a tensor that is not a
# leaf is differentiated from the values it had before.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)

a = x * 1
a.mul_(y)
print(a.grad_fn.name(), a._version)
a.sum().backward()
print(x.grad, y.grad)

b = x * 1
b.add_(y, alpha=2)
b.square_()
print(b.grad_fn.name(), b._version)
b.sum().backward()
print(x.grad, y.grad)

c = x * 1
c.pow_(2)
c.div_(y)
c.sum().backward()
print(x.grad, y.grad)

# Versions: every in-place op on any view of a storage counts.
t = torch.zeros(2, 3)
row = t[0]
row.add_(1)
t.mul_(2)
print(t._version, row._version, t[1]._version, torch.zeros(1)._version)
with torch.no_grad():
    t.zero_()
print(t._version)


def report(fn):
    try:
        fn()
    except RuntimeError as e:
        print("RuntimeError:", e)


e = x.exp()  # exp saves its result
e.add_(1)
report(lambda: e.sum().backward())

h = x * 2
z = (h * y).sum()  # saves h for y's gradient
h.mul_(3)
report(lambda: z.backward())

v = torch.tensor([0.5, 0.25], requires_grad=True)
q = (v * y).sum()
with torch.no_grad():
    v.add_(1)  # a leaf changed under no_grad
report(lambda: q.backward())

d = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
s = d.sigmoid()
s[0] = 5.0  # through a view
report(lambda: s.sum().backward())

# An in-place change nothing saved is fine: linear saves its input, not its result.
w = torch.tensor([[1.0, -1.0], [0.5, 2.0]], requires_grad=True)
out = torch.nn.functional.linear(x.unsqueeze(0), w)
out.relu_()
out.sum().backward()
print(w.grad)
report(lambda: x.add_(1))

# Overwriting a computed tensor: its old values get no gradient, the source gets it.
src = torch.tensor([1.0, 2.0], requires_grad=True)
over = x * 2
over.copy_(src * 3)
over.sum().backward()
print(src.grad, over.grad_fn.name())
