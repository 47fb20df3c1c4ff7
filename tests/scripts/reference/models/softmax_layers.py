# Softmax, LogSoftmax, Softmin and Softmax2d; F.softmax's _stacklevel (PyTorch's Python
# signature takes it after dim, as nn.Softmax passes it); a compiled network of them.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
print(F.softmax(x, -1, _stacklevel=5))
print(F.log_softmax(x, 1, 3))
print(nn.LogSoftmax(dim=1)(x))
print(nn.Softmin(dim=1)(x))
print(nn.Softmax2d()(x.reshape(1, 2, 3)))
print(nn.LogSoftmax(dim=1), nn.Softmin(dim=0), nn.Softmax2d(), type(nn.LogSoftmax(1)))
try:
    nn.Softmax2d()(x)
except ValueError as e:
    print(e)


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)
        self.probs = nn.Softmax(dim=-1)
        self.logs = nn.LogSoftmax(dim=-1)

    def forward(self, x):
        h = self.proj(x)
        return self.probs(h) + self.logs(h)


torch.manual_seed(0)
head = Head()
compiled = torch.compile(head, backend="eager")
print(torch.allclose(compiled(x), head(x)))
