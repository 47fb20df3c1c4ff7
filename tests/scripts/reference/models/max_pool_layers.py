# MaxPool1d/2d/3d, their indices (return_indices=True), reprs, and a compiled network pooling.
import torch
import torch.nn as nn

x = torch.arange(32.0).reshape(1, 2, 4, 4)
print(nn.MaxPool2d(2, return_indices=True)(x))
print(nn.MaxPool1d(2)(x[0]), nn.MaxPool1d(3, stride=1, return_indices=True)(x[0])[1])
print(nn.MaxPool1d(2), nn.MaxPool2d(3, 2, 1), nn.MaxPool3d(2))
print(nn.MaxPool3d(2)(x.reshape(1, 2, 2, 2, 4)))


class Pooled(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        return self.pool(x).relu()


net = Pooled()
print(torch.equal(torch.compile(net, backend="eager")(x), net(x)))
