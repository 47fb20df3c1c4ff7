# A regression: inside a compiled function, .device of a tensor made by an op that places its
# own results (zeros_like, torch.zeros, .to) was the tracer's meta device, so a tensor made
# with device=t.device (a random fill, an arange in a scatter) was a meta tensor at run time
# and the result silently all zeros.
import torch


def fill(x, labels):
    t = torch.zeros_like(x)
    onehot = torch.zeros_like(x).scatter_(1, labels.unsqueeze(1), 1.0)
    counts = torch.zeros(4, dtype=x.dtype).index_add(0, labels, x.sum(1))
    steps = torch.arange(3, device=t.device) * torch.ones(3, device=onehot.device)
    return onehot, counts, steps, str(t.device)


def fill_random(x):  # random draws run eagerly under inductor, the rest of the graph too
    return torch.zeros_like(x).uniform_(2.0, 2.0)


x = torch.linspace(-1.0, 1.0, 12).reshape(4, 3)
labels = torch.tensor([2, 0, 2, 1])
for run, run_random in ((fill, fill_random), (torch.compile(fill), torch.compile(fill_random))):
    print(run(x, labels))
    print(run_random(x))
