# A compiled function reading an optimizer's param_groups guards them as Dynamo's OptimizerVariable
# does: the optimizer and each parameter by id (a parameter replaced recompiles), each group's
# values where param_groups is read; getattr with a default on a missing attribute is NO_HASATTR.
import torch

class Box:
    pass

b = Box()
w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([w], lr=0.5)

@torch.compile(backend="eager")
def f(x):
    total = x * getattr(b, "scale", 1.0)
    for group in opt.param_groups:
        for p in group["params"]:
            total = total + p * group["lr"]
    return total

print(f(torch.zeros(2)).tolist())
b.scale = 2.0
print(f(torch.ones(2)).tolist())
opt.param_groups[0]["params"][0] = torch.nn.Parameter(torch.full((2,), 3.0))
print(f(torch.ones(2)).tolist())
