# torch.optim.LBFGS with line_search_fn="strong_wolfe": the Rosenbrock function from a fixed
# start, a least-squares fit and a small network, the loss after each step, the points
# reached and the optimizer's counters (the line search's evaluations count). Printed to 4
# decimals: PyTorch's dot (BLAS) rounds its sums otherwise than ours in the last bit, and a
# quasi-Newton step carries that forward.
import torch
from torch import nn

xy = torch.tensor([-1.5, 2.0], requires_grad=True)
opt = torch.optim.LBFGS([xy], lr=1, max_iter=20, history_size=10, line_search_fn="strong_wolfe")


def rosenbrock():
    opt.zero_grad()
    loss = (1 - xy[0]) ** 2 + 100 * (xy[1] - xy[0] ** 2) ** 2
    loss.backward()
    return loss


for step in range(4):
    loss = opt.step(rosenbrock)
    print(f"step {step} loss {loss.item():.4f} at [{xy[0].item():.4f}, {xy[1].item():.4f}]")
state = opt.state[xy]
print(state["n_iter"], state["func_evals"], f"{rosenbrock().item():.6f}")

x = torch.linspace(-1.0, 1.0, 16).reshape(8, 2)
target = (x @ torch.tensor([[1.5], [-0.75]]) + 0.25).reshape(8)
net = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.4, 0.4, p.numel()).reshape(p.shape) * (i + 1))
opt2 = torch.optim.LBFGS(net.parameters(), max_iter=5, line_search_fn="strong_wolfe")


def closure():
    opt2.zero_grad()
    loss = ((net(x).reshape(8) - target) ** 2).sum()
    loss.backward()
    return loss


for step in range(3):
    print(f"net step {step} loss {opt2.step(closure).item():.4f}")
print(f"final {closure().item():.4f}", opt2.state[next(net.parameters())]["func_evals"])
try:
    torch.optim.LBFGS(net.parameters(), line_search_fn="backtracking").step(closure)
except RuntimeError as e:
    print("RuntimeError:", e)
