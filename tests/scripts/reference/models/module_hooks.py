# Module hooks: forward pre-hooks and hooks (changing arguments and outputs, with kwargs,
# prepended, removed), state_dict hooks, and load_state_dict pre-hooks renaming a
# checkpoint's keys and post-hooks reading what did not match, eagerly and compiled.
# Outputs print detached: a compiled result's grad_fn depends on the backend.
import torch
from torch import nn


def fill(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.fc2 = nn.Linear(3, 2)

    def forward(self, x, scale=1.0):
        return self.fc2(torch.relu(self.fc1(x))) * scale


net = Net()
fill(net)
x = torch.linspace(-1.0, 1.0, 8).reshape(2, 4)
features = {}


def keep(name):
    def hook(module, args, output):
        features[name] = output.detach()
    return hook


handles = [net.fc1.register_forward_hook(keep("fc1")), net.fc2.register_forward_hook(keep("fc2"))]
print(net(x).detach())
print(sorted(features), features["fc1"])

# A pre-hook changes the input; a hook changes the output; prepend puts one first.
order = []
net.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
net.register_forward_hook(lambda m, args, out: order.append("second") or out + 100)
net.register_forward_hook(lambda m, args, out: order.append("first"), prepend=True)
print(net(x).detach(), order)


def scale_kwargs(module, args, kwargs):
    return args, {"scale": 0.5}


def report(module, args, kwargs, output):
    print("kwargs seen:", kwargs)


h1 = net.register_forward_pre_hook(scale_kwargs, with_kwargs=True)
h2 = net.register_forward_hook(report, with_kwargs=True)
print(net(x, scale=3.0).detach())
h1.remove()
h2.remove()
for h in handles:
    h.remove()
features.clear()
print(net(x).detach(), features)

# Compiled, the hooks run inside the compiled call.
fresh = Net()
fill(fresh)
fresh.fc1.register_forward_hook(lambda m, args, out: out * 0)
compiled = torch.compile(fresh)
print(compiled(x).detach(), fresh(x).detach())

# state_dict hooks and load_state_dict hooks.
model = Net()
fill(model)
model.register_state_dict_pre_hook(lambda m, prefix, keep_vars: print("saving", repr(prefix), keep_vars))
model.fc1._register_state_dict_hook(lambda m, sd, prefix, meta: print("saved", prefix, len(sd)))
state = model.state_dict()
print(list(state))


def rename_old_keys(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    for old in [k for k in state_dict if k.startswith(prefix + "dense.")]:
        state_dict[old.replace(prefix + "dense.", prefix + "fc1.")] = state_dict.pop(old)


old_checkpoint = {k.replace("fc1.", "dense."): v * 2 for k, v in state.items()}
target = Net()
target._register_load_state_dict_pre_hook(rename_old_keys)
target.register_load_state_dict_post_hook(lambda m, keys: print("post", type(m).__name__, keys.missing_keys))
print(target.load_state_dict(old_checkpoint))
print(sorted(old_checkpoint))
print(torch.equal(target.fc1.weight, state["fc1.weight"] * 2))
print(target.load_state_dict({"fc2.weight": state["fc2.weight"], "extra": torch.ones(1)}, strict=False))
try:
    target.load_state_dict({"fc2.weight": state["fc2.weight"]})
except RuntimeError as e:
    print(e)
