# torch.optim.LBFGS with a closure (no line search): a least-squares fit and a small
# network, the loss after each step, the optimizer's state counters and its errors. Printed
# to 4 decimals: PyTorch's dot (BLAS) rounds its products and sums otherwise than ours in the
# last bit, and a quasi-Newton step carries that forward.
import torch
from torch import nn

x = torch.linspace(-1.0, 1.0, 16).reshape(8, 2)
target = (x @ torch.tensor([[1.5], [-0.75]]) + 0.25).reshape(8)
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.LBFGS([w, b], lr=0.5, max_iter=4, history_size=3)


def closure():
    opt.zero_grad()
    loss = ((x @ w + b - target) ** 2).mean()
    loss.backward()
    return loss


for step in range(4):
    loss = opt.step(closure)
    print(f"step {step} loss {loss.item():.4f} w {w.detach()} b {b.item():.4f}")
state = opt.state[w]
print(state["n_iter"], state["func_evals"], len(state["old_dirs"]))

net = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.4, 0.4, p.numel()).reshape(p.shape) * (i + 1))
opt2 = torch.optim.LBFGS(net.parameters())


def closure2():
    opt2.zero_grad()
    loss = ((net(x).reshape(8) - target) ** 2).sum()
    loss.backward()
    return loss


for step in range(3):
    print(f"net step {step} loss {opt2.step(closure2).item():.4f}")
print(f"final {closure2().item():.4f}")
print(opt2)
try:
    torch.optim.LBFGS([{"params": [w]}, {"params": [b]}])
except ValueError as e:
    print("ValueError:", e)
