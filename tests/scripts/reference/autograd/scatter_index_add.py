# scatter_/scatter/scatter_add_/index_add_ (one-hot targets, summing by index) eagerly, with
# their gradients; PyTorch CPU's last write wins where entries meet.
import torch
z = torch.zeros(3, 5)
src = torch.arange(1.0, 11.0).reshape(2, 5)
print(z.scatter(0, torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]]), src))
print(torch.zeros(2, 4).scatter_(1, torch.tensor([[2], [3]]), 1.23))
labels = torch.tensor([2, 0, 1])
print(torch.zeros(3, 4).scatter_(1, labels.unsqueeze(1), 1.0))
print(torch.zeros(5).scatter_add(0, torch.tensor([0, 1, 0, 4, 0]), torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])))
print(torch.ones(5, 3).index_add_(0, torch.tensor([0, 4, 2, 0]), torch.arange(12.0).reshape(4, 3), alpha=2))
x = torch.ones(3, 2, requires_grad=True)
s2 = torch.tensor([[5.0, 6.0]], requires_grad=True)
y = (x * 1).scatter(0, torch.tensor([[2, 0]]), s2)
print(y)
(y * torch.arange(6.0).reshape(3, 2)).sum().backward()
print(x.grad, s2.grad)
w = torch.zeros(4, requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = torch.index_add(w * 1, 0, torch.tensor([1, 1, 3]), v)
out.pow(2).sum().backward()
print(out, w.grad, v.grad)
try:
    torch.zeros(3).scatter_(0, torch.tensor([3]), 1.0)
except RuntimeError as e:
    print("RuntimeError:", e)
