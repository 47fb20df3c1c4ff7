# Global module hooks (torch.nn.modules.module's register_module_forward_pre_hook and
# register_module_forward_hook, always_call among them): every module's call runs them, eagerly
# and compiled; a function compiled while one is registered recompiles once it is removed.
# Compiled results print detached: their grad_fn depends on the backend.
import torch
from torch import nn
from torch.nn.modules import module as module_file

net = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1.0, 1.0, p.numel()).reshape(p.shape) * (i + 1))
x = torch.linspace(-2.0, 2.0, 6).reshape(2, 3)
seen = []


def note(module, args):
    seen.append(type(module).__name__)


def double_relu(module, args, output):
    return output * 2 if isinstance(module, nn.ReLU) else None


pre = module_file.register_module_forward_pre_hook(note)
post = module_file.register_module_forward_hook(double_relu)
print(net(x), seen)


def run(x):
    return net(x)


compiled = torch.compile(run, backend="eager")
print(compiled(x).detach(), len(seen))
pre.remove()
post.remove()
print(compiled(x).detach(), torch.equal(compiled(x), net(x)), len(seen))


class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("boom")


calls = []
always = module_file.register_module_forward_hook(lambda m, args, out: calls.append(type(m).__name__), always_call=True)
try:
    Boom()(x)
except ValueError as e:
    print("raised", e, calls)
always.remove()
print(nn.Identity()(x).shape, calls)
