import torch
import torch.nn as nn


class RunningNorm(nn.Module):
    """Normalises by running statistics it keeps in buffers."""

    def __init__(self, features, momentum=0.5):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(features))
        self.register_buffer("running_var", torch.ones(features))
        self.register_buffer("steps", torch.tensor(0), persistent=False)
        self.scale = nn.Parameter(torch.ones(features))

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                mean = x.mean(0)
                var = x.var(0)
                self.running_mean.mul_(1 - self.momentum).add_(mean * self.momentum)
                self.running_var.mul_(1 - self.momentum).add_(var * self.momentum)
                self.steps += 1
        return (x - self.running_mean) / (self.running_var + 1e-5).sqrt() * self.scale

    def extra_repr(self):
        return f"features={self.scale.numel()}, momentum={self.momentum}"


norm = RunningNorm(3)
print(norm)
x = torch.tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [2.0, 5.0, 2.0]])
for _ in range(2):
    y = norm(x)
print(norm.running_mean, norm.running_var, norm.steps)
sd = norm.state_dict()
print(list(sd.keys()), type(sd).__name__)
print(sd["running_mean"])
fresh = RunningNorm(3)
print(fresh.load_state_dict(sd))
print(torch.equal(fresh.running_var, norm.running_var), fresh.steps)
print(fresh.load_state_dict({"scale": torch.ones(3)}, strict=False))
try:
    fresh.load_state_dict({"scale": torch.ones(4), "running_mean": torch.zeros(3), "running_var": torch.ones(3), "bogus": torch.ones(1)})
except RuntimeError as e:
    print(e)
norm.eval()


# Compiled: the running statistics (buffers, read as graph inputs) beside the batch's own.
def centred(t):
    y = norm(t)
    return y - y.mean(0)


with torch.no_grad():
    print(norm(x))
    print(torch.compile(norm, backend="eager")(x))
    print(torch.allclose(torch.compile(centred)(x), centred(x), atol=1e-6))
print([n for n, _ in norm.named_buffers()], [n for n, _ in norm.named_parameters()])
norm.running_mean = None
print(norm.state_dict().keys())
try:
    norm.scale = torch.ones(3)
except TypeError as e:
    print(e)
