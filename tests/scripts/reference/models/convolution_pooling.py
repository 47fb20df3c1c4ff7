# Convolution and pooling edge cases, checked against real PyTorch: groups, strides,
# dilation and padding in 1-D and 2-D, float32 (oneDNN in Fusescope) against float64 (plain
# loops), NaN in max pooling, ceil_mode windows, count_include_pad, divisor_override,
# adaptive pooling with uneven windows, batch norm with a cumulative average, group norm.
import torch
import torch.nn as nn
import torch.nn.functional as F


def grid(*shape, scale=0.1):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float32) * scale).sin().reshape(shape)


def show(name, t):
    print(name, tuple(t.shape), [round(v, 4) for v in t.flatten().tolist()[:6]], round(t.sum().item(), 3))


x = grid(2, 6, 9, 7)
w = grid(4, 3, 3, 2, scale=0.23)
b = grid(4, scale=0.5)
y = F.conv2d(x, w, b, stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2)
show("conv2d groups/stride/dilation:", y)
y64 = F.conv2d(x.double(), w.double(), b.double(), stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2)
print("float64 agrees:", y64.dtype, torch.allclose(y64.float(), y, atol=1e-5))
show("conv2d 1x1 stride 3:", F.conv2d(x, grid(5, 6, 1, 1), stride=3))
show("conv1d:", F.conv1d(grid(3, 4, 11), grid(6, 2, 3, scale=0.3), grid(6), stride=2, padding=2, dilation=2, groups=2))
show("conv1d unbatched:", F.conv1d(grid(4, 11), grid(5, 4, 4)))

p = grid(1, 2, 5, 5, scale=0.7)
p[0, 0, 1, 1] = float("nan")
print("max_pool2d keeps NaN:", F.max_pool2d(p, 2)[0, 0].tolist()[0])
show("max_pool2d ceil/dilation:", F.max_pool2d(p[:, 1:], 2, 2, 1, dilation=1, ceil_mode=True))
show("max_pool2d dilation 2:", F.max_pool2d(grid(2, 3, 8, 8), 3, 1, 1, dilation=2))
q = torch.arange(9, dtype=torch.float32).reshape(1, 1, 3, 3)
print("avg_pool2d ceil_mode:", F.avg_pool2d(q, 2, 2, ceil_mode=True).tolist())
print("avg_pool2d padded, counting the padding:", F.avg_pool2d(q, 2, 2, 1).tolist())
print("avg_pool2d padded, not counting it:", F.avg_pool2d(q, 2, 2, 1, count_include_pad=False).tolist())
print("avg_pool2d ceil and padding:", F.avg_pool2d(q, 2, 2, 1, ceil_mode=True).tolist())
print("avg_pool2d divisor_override:", F.avg_pool2d(q, 3, 1, 1, divisor_override=2).tolist()[0][0][0])
show("adaptive_avg_pool2d 5x7 -> 3x4:", F.adaptive_avg_pool2d(grid(2, 3, 5, 7), (3, 4)))
show("adaptive_avg_pool2d unbatched:", F.adaptive_avg_pool2d(grid(3, 6, 6), 2))

bn = nn.BatchNorm1d(4, momentum=None)
for step in range(3):
    bn(grid(5, 4, scale=0.3 + step))
print("cumulative running mean:", [round(v, 4) for v in bn.running_mean.tolist()], bn.num_batches_tracked.item())
bn.eval()
show("batch_norm1d eval on 3-D input:", bn(grid(2, 4, 3)))
show("group_norm:", F.group_norm(grid(2, 6, 3, 3), 3, grid(6), grid(6, scale=0.2)))
print(nn.GroupNorm(2, 6, affine=False), nn.BatchNorm2d(5, affine=False, track_running_stats=False), nn.BatchNorm1d(3, bias=False))
print(nn.Conv2d(4, 8, (3, 5), stride=2, padding=(1, 2), dilation=2, groups=4), nn.MaxPool2d(3, 2, 1, ceil_mode=True))
for bad in [lambda: F.conv2d(x, grid(4, 3, 3, 3), groups=3), lambda: F.conv1d(grid(2, 3), grid(4, 3, 1)),
            lambda: nn.BatchNorm1d(4)(grid(1, 4)), lambda: F.group_norm(grid(2, 6, 2), 4), lambda: nn.GroupNorm(4, 6),
            lambda: F.conv2d(x, w, grid(3), groups=2)]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)

# Compiled: convolution, group norm, relu and both poolings, as eager computes them.
block = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.GroupNorm(2, 4), nn.ReLU(), nn.MaxPool2d(2), nn.AdaptiveAvgPool2d(1))
with torch.no_grad():
    block[0].weight.copy_(grid(4, 2, 3, 3, scale=0.3))
    block[0].bias.copy_(grid(4))
    print(torch.allclose(torch.compile(block)(grid(2, 2, 6, 6)), block(grid(2, 2, 6, 6)), atol=1e-6))

# A window larger than the input: no output at all, an error (once a one-element output).
for pool in (lambda: F.avg_pool2d(torch.ones(2, 3, 4, 4), 8), lambda: F.max_pool2d(torch.ones(3, 4, 4), 3, stride=2, dilation=3)):
    try:
        print(pool().shape)
    except RuntimeError as e:
        print("RuntimeError:", e)
