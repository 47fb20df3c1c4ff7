# torch.autocast on the CPU (bfloat16 and float16): matrix products and linear layers run
# in the lower precision (a linear adding its bias before its one rounding, as PyTorch's
# addmm), losses in float32, cat promotes, float64 stays; gradients flow back through the
# casts to float32 parameters; as a decorator; nested and disabled regions; a compiled
# function called inside and outside autocast (recompiled on the changed global state), or
# entering autocast itself.
import torch
import torch.nn as nn
import torch.nn.functional as F


def values(*shape, scale=1.0, shift=0.0):
    n = 1
    for s in shape:
        n *= s
    return (torch.sin(torch.arange(n, dtype=torch.float32) * 0.7 + shift) * scale).reshape(shape)


net = nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 3))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(values(*p.shape, scale=0.5, shift=i))
x = values(4, 6, shift=0.3)
target = torch.tensor([0, 2, 1, 2])

with torch.autocast("cpu"):
    out = net(x)
    loss = F.cross_entropy(out, target)
    print(out.dtype, loss.dtype, out.grad_fn.name())
    print(out)
    print(round(loss.item(), 4))
loss.backward()
for name, p in net.named_parameters():
    print(name, p.grad.dtype, [round(v, 4) for v in p.grad.reshape(-1)[:4].tolist()])

layer = nn.Linear(4, 3)
with torch.no_grad():
    layer.weight.copy_(values(3, 4, scale=0.3))
    layer.bias.copy_(values(3, shift=1.0))
image = values(2, 4, shift=0.5)
with torch.autocast("cpu", dtype=torch.float16):
    y = layer(image)
    print(y.dtype, y.sum().item())
    print(torch.cat([y, image[:, :3]]).dtype, (image.double() @ image.double().t()).dtype)
    print(F.mse_loss(y, y.detach() + 1).dtype, F.mse_loss(y, y.detach() + 1).item())
    with torch.autocast("cpu", enabled=False):
        print((x @ x.t()).dtype)
    print((x @ x.t()).dtype, torch.get_autocast_dtype("cpu"))
print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))


@torch.autocast("cpu")
def project(a, b):
    return a @ b


print(project(x, x.t()).dtype, project(x, x.t())[0])


@torch.compile(backend="aot_eager")
def scores(a, b):
    return torch.softmax(a @ b, dim=-1)


print(scores(x, x.t()).dtype)
with torch.autocast("cpu"):
    print(scores(x, x.t()).dtype, scores(x, x.t())[1])


@torch.compile(backend="aot_eager")
def mixed(a, b):
    with torch.autocast("cpu"):
        inner = a @ b
    return inner.float() + (a @ b)


print(mixed(x, x.t()).dtype, mixed(x, x.t())[2])
