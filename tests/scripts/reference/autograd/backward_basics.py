# Eager autograd: backward() into leaves' .grad, torch.autograd.grad, retain_grad, gradient
# accumulation, broadcasting and views undone, and PyTorch's errors.
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
w = torch.tensor([[0.5, -1.0], [2.0, 0.25], [-0.5, 1.5]], requires_grad=True)
b = torch.tensor([0.1, -0.2], requires_grad=True)
hidden = (x @ w + b).relu()
loss = (hidden * hidden).sum() / 4
print(loss)
loss.backward()
print(x.grad)
print(w.grad)
print(b.grad)
print(x.is_leaf, hidden.is_leaf)

z = torch.tensor([0.3, -0.7, 1.1], requires_grad=True)
t = torch.sigmoid(z).exp() + torch.tanh(z) * z.sin() - z.cos() / (z * z + 1).sqrt()
u = t.mean()
print(torch.autograd.grad(u, z, retain_graph=True))
u.backward()
try:
    u.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(z.grad)
z.grad = None
print(z.grad)

m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
r = m.t().reshape(4).view(2, 2).transpose(0, 1).unsqueeze(0).permute(2, 0, 1)
s = (r * torch.tensor([1.0, 2.0])).sum(dim=(0, 1))
s.pow(2).sum().backward()
print(m.grad)

(torch.nn.functional.linear(x, w.t(), b).sum() * 2).backward()
print(x.grad)  # added to the first backward's

v = torch.ones(3, requires_grad=True)
doubled = v * 2
doubled.retain_grad()
doubled.sum().backward()
print(doubled.grad, v.grad)
for bad in (lambda: doubled.sum().backward(), lambda: (v * 3).backward(), lambda: torch.ones(2).sum().backward()):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)

# Ops that keep only sizes can be gone through again; exp keeps its result and cannot.
a = torch.tensor([1.0, 2.0], requires_grad=True)
c = (a + 1).reshape(2, 1).expand(2, 3)
c.sum().backward()
c.sum().backward()
print(a.grad)
d = a.exp()
d.sum().backward()
try:
    d.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:40])
print(torch.autograd.grad((a * a).sum(), [a]))
try:
    torch.autograd.grad((a * 2).sum(), [a, b])
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.autograd.grad((a * 2).sum(), [a, b], allow_unused=True))

# A float64 exponent tensor; the gradient of each argument keeps its dtype.
f = torch.tensor([2.0, 3.0], dtype=torch.float64, requires_grad=True)
(f.pow(torch.tensor([2.0, 0.5], dtype=torch.float64)) * a).sum().backward()
print(f.grad, a.grad)
with torch.no_grad():
    n = a * 2
print(n.requires_grad)

# unbind: each part's gradient goes back to its place; a part not used gets zeros.
x = torch.arange(6.0).reshape(2, 3).requires_grad_()
a, b, c = x.unbind(1)
print(a.grad_fn.name())
(b * 2 + c).sum().backward()
print(x.grad)
q, k = torch.unbind(x * 1, 0)
(q * k).sum().backward()
print(x.grad)
# as_strided: overlapping windows of a storage, and of an expanded tensor that shares it.
s = torch.arange(8.0, requires_grad=True)
windows = s[1:].as_strided((3, 3), (2, 1), 1)
(windows * windows).sum().backward()
print(windows.grad_fn.name(), s.grad)
s.grad = None
shared = s[:3].expand(2, 3).as_strided((2, 2), (0, 1), 1)
(shared * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(s.grad)
# A strided slice's gradient lands on every step-th element; floor_divide has no derivative.
r = torch.arange(10.0, requires_grad=True)
(r[1::3] * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
(r[2:9:4] * 5).sum().backward()
print(r.grad)
q = torch.floor_divide(r, 2)
print(q.grad_fn.name())
try:
    q.sum().backward()
except RuntimeError as e:
    print(e)
# clamp with tensor bounds where min > max: the result is max, which gets the gradient.
x = torch.tensor([0.0, 1.0, 3.0, -2.0], requires_grad=True)
lo = torch.tensor([0.5, 2.0, 1.0, -1.0], requires_grad=True)
hi = torch.tensor([0.2, 1.5, 2.0, 0.5], requires_grad=True)
torch.clamp(x, lo, hi).backward(torch.tensor([1.0, 2.0, 3.0, 4.0]))
print(x.grad, lo.grad, hi.grad)
