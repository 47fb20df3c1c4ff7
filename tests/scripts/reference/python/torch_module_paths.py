# The torch modules and legacy names older model code imports (tkipf/pygcn's layers among
# them): torch.nn.parameter, torch.nn.modules.module and .utils, the typed tensor
# constructors (torch.FloatTensor(2, 3), torch.LongTensor([1, 2])), torch.spmm on dense
# matrices, and the in-place random fills Tensor.uniform_ and Tensor.normal_.
import math

import torch
from torch.nn.modules.module import Module
from torch.nn.modules.utils import _pair, _single, _triple
from torch.nn.parameter import Parameter


class Scale(Module):
    def __init__(self, size):
        super(Scale, self).__init__()
        self.weight = Parameter(torch.FloatTensor(size))
        self.weight.data.uniform_(-0.5, 0.5)

    def forward(self, x):
        return x * self.weight


layer = Scale(4)
print(isinstance(layer, torch.nn.Module), Parameter is torch.nn.Parameter, [name for name, _ in layer.named_parameters()])
inside = bool(((layer.weight >= -0.5) & (layer.weight <= 0.5)).all())
print(layer.weight.shape, layer.weight.dtype, layer.weight.requires_grad, inside)
print(_single(3), _pair(3), _triple((1, 2, 3)), _pair([4, 5]), _pair(torch.Size([6, 7])))
print(torch.FloatTensor(2, 3).shape, torch.FloatTensor(torch.Size([3])).shape, torch.FloatTensor([1, 2]),
      torch.DoubleTensor([1.5]).dtype, torch.LongTensor([1, 2]), torch.IntTensor(2).dtype, torch.BoolTensor([1, 0]))
a = torch.arange(6.0).reshape(2, 3)
print(torch.spmm(a, torch.ones(3, 2)))
draws = torch.zeros(1000).normal_(2.0, 0.5)
print(draws.shape, abs(draws.mean().item() - 2.0) < 0.1, abs(draws.std().item() - 0.5) < 0.1)
spread = torch.zeros(1000, dtype=torch.float64).uniform_(3, 4)
print(spread.dtype, bool((spread >= 3).all() and (spread < 4).all()), abs(spread.mean().item() - 3.5) < 0.05)
leaf = torch.zeros(2, requires_grad=True)
try:
    leaf.uniform_()
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.pi == math.pi, torch.e == math.e)
print(torch.Size([2, 3]), torch.Size(), torch.Size((4,)) == (4,), isinstance(torch.zeros(2).shape, torch.Size),
      isinstance((2,), torch.Size), isinstance(torch.Size([1]), tuple))
try:
    torch.Size([2.5])
except TypeError as e:
    print("TypeError:", e)
