import torch
from torch import nn


class ResidualBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.fc = nn.Linear(width, width)

    def forward(self, x):
        h = self.fc(self.norm(x))
        if h.mean() > 0:  # a graph break: the branch depends on a tensor's value
            h = h * 0.5
        return x + torch.relu(h)
