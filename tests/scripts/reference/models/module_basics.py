import torch
import torch.nn as nn
import torch.nn.functional as F
from collections import OrderedDict


class MLP(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(d_hidden, d_out, bias=False)
        self.drop = nn.Dropout(0.1)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("step", torch.zeros(1), persistent=False)
        self.alpha = 0.5

    def forward(self, x):
        return self.drop(self.fc2(self.act(self.fc1(x)))) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([MLP(4, 8, 4) for _ in range(3)])
        self.head = nn.Sequential(nn.LayerNorm(4), nn.Linear(4, 2), nn.ReLU())
        self.extra = nn.ModuleDict({"tanh": nn.Tanh(), "soft": nn.Softmax(dim=-1)})
        self.proj = nn.Sequential(OrderedDict([("flat", nn.Flatten()), ("id", nn.Identity()), ("sig", nn.Sigmoid())]))

    def forward(self, x):
        for block in self.blocks:
            x = x + block(x)
        return self.extra["soft"](self.head(x))


torch.manual_seed(0)
net = Net()
print(net)
print([n for n, _ in net.named_parameters()])
print([n for n, _ in net.named_buffers()], list(net.state_dict().keys()))
print(sum(p.numel() for p in net.parameters()), len(list(net.modules())), [n for n, _ in net.named_children()])
print(net.training, net.blocks[0].drop.training)
net.eval()
print(net.training, net.blocks[0].drop.training, net.head[1], len(net.head), net.head[-1], net.head[:2])
print(type(net.blocks[0].fc1.weight).__name__, isinstance(net.blocks[0].fc1.weight, nn.Parameter), isinstance(net.blocks[0].fc1.weight, torch.Tensor))
print(net.blocks[0].fc1.weight.shape, net.blocks[0].fc2.bias, net.blocks[0].scale, net.blocks[0].alpha)
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]]))
    lin.bias.fill_(0.25)
print(lin.weight)
print(lin(torch.tensor([[1.0, 1.0, 1.0]])))
sd = lin.state_dict()
print(sd)
lin2 = nn.Linear(3, 2)
print(lin2.load_state_dict(sd))
print(torch.equal(lin2.weight, lin.weight), "extra" in net.extra, list(net.extra.keys()))
try:
    lin2.load_state_dict({"weight": torch.zeros(2, 3)})
except RuntimeError as e:
    print(e)
try:
    net.missing
except AttributeError as e:
    print(e)
del net.blocks[0].alpha
net.blocks[0].fc1 = nn.Linear(4, 8, bias=False)
print(net.blocks[0].fc1, hasattr(net.blocks[0], "alpha"))
print(nn.GELU(approximate="tanh"), nn.ReLU(inplace=True), nn.LayerNorm((2, 3), eps=1e-6), nn.Dropout())
print(net.apply(lambda m: None) is net, net.get_submodule("head.1"), net.get_parameter("head.1.bias").shape)

# Compiled: the network's forward as its eager forward computes it (dropout off in eval).
net.eval()
compiled = torch.compile(net)
print(torch.allclose(compiled(torch.ones(2, 4)), net(torch.ones(2, 4)), atol=1e-6), type(compiled).__name__)
