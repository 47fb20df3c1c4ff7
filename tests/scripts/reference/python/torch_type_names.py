# torch's own types as Python names them (repr, __module__, type() of their values), the
# torch.optim.optimizer module public optimizers are written against, and what importing
# torch._dynamo (torch.compile does) adds to its foreach types.
import collections

import torch
import torch.optim.optimizer as optimizer_module
from torch.optim.optimizer import Optimizer

print(torch.nn.Parameter, torch.Size, torch.dtype, torch.device, torch.Tensor)
print(collections.OrderedDict, collections.defaultdict)
print(type(torch.float32), type(torch.Size([2, 3])), type(torch.device("cpu")), type(torch.nn.Parameter(torch.ones(1))))
print(torch.Size.__module__, torch.dtype.__module__, torch.nn.Parameter.__module__, collections.OrderedDict.__module__, int.__module__)
print(type(torch.float32) is torch.dtype, isinstance(torch.float32, torch.dtype), type(torch.Size([1]))([4, 5]))


class Scale(Optimizer):
    def __init__(self, params, factor):
        super().__init__(params, {"factor": factor})

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                p.mul_(group["factor"])


w = torch.nn.Parameter(torch.ones(3))
Scale([w], 0.5).step()
print(w, Optimizer is torch.optim.Optimizer, optimizer_module.Optimizer is Optimizer)

print(optimizer_module._foreach_supported_types)
torch.compile(lambda x: x + 1)(torch.ones(2))
types = optimizer_module._foreach_supported_types
print(types)
print(issubclass(types[2], torch.Tensor), isinstance(w, types[2]), isinstance(w, tuple(types)))
