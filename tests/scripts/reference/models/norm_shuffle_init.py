# torch.nn layers real model files use: InstanceNorm1d/2d (with affine and running
# statistics), PixelShuffle/PixelUnshuffle, torch.nn.init as a module (gains, fans, the
# fills' bounds and shapes: its draws are not PyTorch's numbers, so only those are printed),
# and tensor methods written in Python (norm, repeat_interleave, roll, view_as, type), eager and
# compiled.
import math

import torch
import torch.nn as nn
import torch.nn.init as init


def pattern(count, seed):
    return ((torch.arange(count) * 7919 + seed * 104729) % 1009).float() / 1009 - 0.5


class Upscaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 8, 3, padding=1)
        self.norm = nn.InstanceNorm2d(8, affine=True)
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, x):
        return self.shuffle(torch.relu(self.norm(self.conv(x))))


model = Upscaler()
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape))
print(model)
x = pattern(2 * 2 * 5 * 5, 7).reshape(2, 2, 5, 5)
eager = model(x)
compiled = torch.compile(model)(x)
print(eager.shape, round(eager.sum().item(), 4), torch.allclose(eager, compiled, atol=1e-5))
print(nn.PixelUnshuffle(2)(eager).shape, torch.equal(nn.PixelUnshuffle(2)(eager), torch.relu(model.norm(model.conv(x)))))

tracked = nn.InstanceNorm1d(3, track_running_stats=True)
y = tracked(pattern(2 * 3 * 4, 3).reshape(2, 3, 4))
print(tracked, y.shape, tracked.running_mean, tracked.running_var)
tracked.eval()
print(tracked(pattern(3 * 4, 5).reshape(3, 4)).sum().item() != 0, tracked.num_batches_tracked)
for bad in [torch.ones(2, 3), torch.ones(1, 3, 1)]:
    try:
        tracked.train()
        tracked(bad)
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)

print(init.calculate_gain("relu"), init.calculate_gain("tanh"), init.calculate_gain("leaky_relu", 0.2), init.calculate_gain("conv2d"))
w = torch.empty(16, 4, 3, 3)
print(init._calculate_fan_in_and_fan_out(w))
bound = math.sqrt(6.0 / (36 + 144))
print(init.xavier_uniform_(w) is w, w.abs().max().item() <= bound)
init.kaiming_uniform_(w, a=math.sqrt(5))
print(w.abs().max().item() <= 1 / math.sqrt(36))
init.trunc_normal_(w, std=0.02, a=-0.04, b=0.04)
print(w.abs().max().item() <= 0.04, w.requires_grad)
q = init.orthogonal_(torch.empty(6, 4))
print(torch.allclose(q.t() @ q, torch.eye(4), atol=1e-5))
p = nn.Parameter(torch.ones(3))
init.constant_(p, 0.5)
init.zeros_(model.conv.bias)
print(p, init.eye_(torch.empty(2, 3)), model.conv.bias.abs().sum().item())
try:
    init.kaiming_normal_(torch.empty(3))
except ValueError as e:
    print("ValueError:", e)

v = torch.tensor([[3.0, -4.0], [1.0, 2.0]], requires_grad=True)
n = v.norm()
print(n, torch.norm(v, dim=1), v.norm(p=1), v.norm(float("inf")), v.norm(dim=0, keepdim=True), n.grad_fn.name())
n.backward()
print(v.grad)
print(torch.arange(3).repeat_interleave(2), v.detach().repeat_interleave(torch.tensor([1, 2]), dim=0))
r = torch.arange(6.0, requires_grad=True).reshape(2, 3).roll((1, -1), (0, 1))
print(r, r.grad_fn.name(), torch.roll(torch.arange(5), -2), torch.arange(6).reshape(2, 3).roll(1), torch.arange(4).roll(9, 0))
print(torch.repeat_interleave(torch.tensor([2, 0, 1])), v.view_as(torch.empty(4)).shape, v.type(), v.type(torch.float64).dtype)


@torch.compile
def normalized(t, like):
    return t / t.norm(dim=-1, keepdim=True) + t.repeat_interleave(2, dim=1).view_as(like).sum(-1)


print(normalized(torch.tensor([[3.0, 4.0], [1.0, 0.0]]), torch.zeros(2, 2, 2)))
