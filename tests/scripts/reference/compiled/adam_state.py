# A compiled training step with a fresh Adam: its state (step, exp_avg, exp_avg_sq) is made on
# the first step; every step must print eager's numbers.
import torch

v = torch.nn.Parameter(torch.tensor([0.25, -0.75]))
adam = torch.optim.Adam([v], lr=0.05)


@torch.compile
def adam_step(x):
    adam.zero_grad()
    loss = ((v - x) ** 2).sum()
    loss.backward()
    adam.step()
    return loss


target = torch.tensor([1.0, 1.0])
for i in range(3):
    loss = adam_step(target)
    print("adam", i, round(loss.item(), 4), [round(t, 4) for t in v.tolist()], float(adam.state[v]["step"]))
print(sorted(adam.state[v].keys()))
