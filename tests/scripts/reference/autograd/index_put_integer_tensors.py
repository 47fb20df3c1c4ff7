# tensor[index] = value with integer tensors or lists in the index (index_put_): the last
# write to a place wins; the gradient reaches the value where it was written.
import torch
t = torch.zeros(5)
t[torch.tensor([1, 3])] = torch.tensor([7.0, 9.0])
print(t)
t[torch.tensor(0)] = 2.5
print(t)
t[[4, -1]] = torch.tensor([1.0, 6.0])
print(t)
m = torch.arange(12.0).reshape(3, 4)
m[torch.tensor([0, 2])] = torch.tensor([-1.0, -2.0, -3.0, -4.0])
print(m)
m[:, torch.tensor([1, 3])] = 0.0
print(m)
m[torch.tensor([0, 1]), torch.tensor([2, 3])] = torch.tensor([10.0, 20.0])
print(m)
w = torch.ones(4, requires_grad=True)
v = torch.tensor([5.0, 6.0], requires_grad=True)
y = w * 2
y[torch.tensor([0, 2])] = v * 3
print(y)
y.sum().backward()
print(w.grad, v.grad)
i = torch.zeros(3, dtype=torch.int64)
i[torch.tensor([2])] = 7
print(i)
try:
    t[torch.tensor([5])] = 1.0
except IndexError as e:
    print("IndexError:", e)
