# binary_cross_entropy_with_logits: values, and gradients of the input and the target as PyTorch's
# formulas give them (at x = 0 and at saturated logits too), weighted, with pos_weight, compiled.
import torch
import torch.nn.functional as F
x = torch.tensor([[0.5, -1.5, 2.0], [30.0, -40.0, 0.0]], requires_grad=True)
t = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.25, 0.0]])
w = torch.tensor([1.0, 2.0, 0.5])
pw = torch.tensor([3.0, 1.0, 0.25])
for kw in ({}, {"weight": w}, {"pos_weight": pw}, {"reduction": "sum"}, {"reduction": "none", "pos_weight": pw, "weight": w}):
    loss = F.binary_cross_entropy_with_logits(x, t, **kw)
    print(loss)
    loss.sum().backward()
    print(x.grad)
    x.grad = None
print(torch.nn.BCEWithLogitsLoss(pos_weight=pw)(x, t))
print(F.leaky_relu(x, 0.1), F.elu(x, 0.5))
x = torch.tensor([[0.5, -1.5, 2.0], [30.0, -40.0, 0.0]], requires_grad=True)
t = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.25, 0.0]], requires_grad=True)
pw = torch.tensor([3.0, 1.0, 0.25])
F.binary_cross_entropy_with_logits(x, t, pos_weight=pw).backward()
print(x.grad, t.grad)
x.grad = None
t.grad = None
F.binary_cross_entropy_with_logits(x, t).backward()
print(x.grad, t.grad)


@torch.compile
def f(x, t):
    return F.binary_cross_entropy_with_logits(x, t, pos_weight=pw)


x.grad = None
loss = f(x, t.detach())
loss.backward()
print(loss, x.grad)
