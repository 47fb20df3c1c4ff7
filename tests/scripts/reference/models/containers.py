import torch
import torch.nn as nn
from collections import OrderedDict


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)
        self.act = nn.SiLU()

    def forward(self, x):
        return x + self.act(self.fc(x))


class Tower(nn.Module):
    def __init__(self, width=4, depth=3):
        super().__init__()
        self.blocks = nn.ModuleList([Block(width) for _ in range(depth)])
        self.heads = nn.ModuleDict({"mean": nn.Linear(width, 1), "scale": nn.Sequential(nn.Linear(width, 1), nn.Sigmoid())})
        self.stem = nn.Sequential(OrderedDict([("norm", nn.LayerNorm(width)), ("drop", nn.Dropout(0.0))]))

    def forward(self, x):
        x = self.stem(x)
        for block in self.blocks:
            x = block(x)
        return {name: head(x) for name, head in self.heads.items()}


def set_values(model):
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + i % 3))


tower = Tower()
print(tower)
tower.blocks.append(Block(4))
tower.blocks.insert(0, Block(4))
tower.heads["extra"] = nn.Identity()
print(len(tower.blocks), list(tower.heads.keys()), "extra" in tower.heads, tower.stem.norm)
print([name for name, _ in tower.named_modules()])
print(tower.stem[0], tower.stem[-1], tower.stem[0:1], tower.blocks[-1].fc.out_features)
set_values(tower)
x = torch.linspace(-1.0, 1.0, 8).reshape(2, 4)
with torch.no_grad():
    out = tower(x)
    print(out["mean"], out["scale"], out["extra"].shape)
    compiled = torch.compile(tower, backend="eager")(x)
print(all(torch.allclose(compiled[k], out[k]) for k in out))
print(sum(p.numel() for p in tower.parameters()), len(list(tower.children())), len(list(tower.modules())))
