import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.norm = nn.LayerNorm(4)
        self.drop = nn.Dropout(0.5)
        self.scale = 2.0

    def forward(self, x):
        h = self.drop(torch.relu(self.fc(x)))
        if self.training:
            h = h * 0.0
        return self.norm(h * self.scale + x)


torch.manual_seed(0)
block = Block()
with torch.no_grad():
    block.fc.weight.copy_(torch.arange(16.0).reshape(4, 4) / 10 - 0.7)
    block.fc.bias.copy_(torch.tensor([0.1, -0.2, 0.3, -0.4]))
x = torch.linspace(-1.0, 1.0, 8).reshape(2, 4)
block.eval()
eager = block(x)
compiled = torch.compile(block, backend="eager")
print(compiled(x).detach())
print(torch.allclose(compiled(x), eager))
block.scale = 3.0
print(compiled(x).detach())
block.train()
print(compiled(x).detach())
block.eval()
print(compiled(torch.ones(3, 4)).detach())
print(type(compiled).__name__, compiled.scale, compiled.fc)
block.compile(backend="eager")
print(block(x).detach())
