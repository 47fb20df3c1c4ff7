# The model every checkpoint here holds the state of: an embedding, a linear layer, batch
# norm (running statistics and a batch count) and a linear layer without bias.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(5, 4)
        self.fc1 = nn.Linear(4, 3)
        self.bn = nn.BatchNorm1d(3)
        self.fc2 = nn.Linear(3, 2, bias=False)

    def forward(self, idx):
        return self.fc2(torch.relu(self.bn(self.fc1(self.embed(idx)))))


def set_state(net):
    """Every parameter and buffer by a closed formula, as PyTorch would after some training."""
    with torch.no_grad():
        for i, (name, t) in enumerate(net.state_dict().items()):
            if t.dtype == torch.int64:
                t.fill_(7)
            else:
                n = t.numel()
                t.copy_(torch.sin(torch.arange(n, dtype=torch.float32) * 0.37 + 1.3 * i).reshape(t.shape) * 0.8 + (1.0 if "running_var" in name else 0.0))
    return net
