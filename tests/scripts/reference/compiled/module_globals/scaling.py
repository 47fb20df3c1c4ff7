# Read by compiled functions of main.py: a change to SCALE must recompile them, as Dynamo's
# guard G['__import_scaling'].SCALE does.
import torch

SCALE = 2.0


def scaled(x):
    return x * SCALE


class Gate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, x):
        return torch.relu(self.lin(x)) * SCALE
