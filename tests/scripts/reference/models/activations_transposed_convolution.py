# In-place activations (ReLU, ReLU6, Hardtanh, SiLU, Hardswish), channel dropout (Dropout1d/2d/3d),
# transposed convolutions (1-D and 2-D, groups, dilation, output_padding, output_size) eagerly,
# compiled and differentiated, grouped convolution gradients, nn.init's deprecated names,
# Tensor.expand_as, torch.Size slices and torch's constants.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def pattern(count, seed):
    return ((torch.arange(count) * 7919 + seed * 104729) % 1009).float() / 1009 - 0.5


def fill(module):
    with torch.no_grad():
        for index, param in enumerate(module.parameters()):
            param.copy_(pattern(param.numel(), index).reshape(param.shape))

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.relu = nn.ReLU(inplace=True)
        self.relu6 = nn.ReLU6(inplace=True)
        self.tanh = nn.Hardtanh(-0.5, 0.5)
        self.drop = nn.Dropout2d(0.3)

    def forward(self, x):
        y = self.lin(x)
        self.relu(y)  # the result dropped: only the in-place write counts
        z = self.relu6(self.lin(x) * 4)
        return y + z + self.tanh(x) + self.drop(x.unsqueeze(-1).unsqueeze(-1)).flatten(1)


block = Block().eval()
with torch.no_grad():
    block.lin.weight.copy_(torch.linspace(-1, 1, 16).reshape(4, 4))
    block.lin.bias.copy_(torch.tensor([0.1, -0.2, 0.3, -0.4]))
x = torch.linspace(-2, 2, 8).reshape(2, 4)
print(block(x))
print(torch.compile(block)(x).detach())  # (a compiled grad_fn's name depends on the backend)
print(torch.compile(block, backend="aot_eager")(x).detach())
block.train()
block.drop.p = 0.0
x.requires_grad_(True)
torch.compile(block)(x).sum().backward()
print(x.grad)
x.grad = None
block(x).sum().backward()
print(x.grad)
print(F.relu6(torch.tensor([-1.0, 3.0, 7.0])), F.hardtanh(torch.tensor([-2.0, 0.5, 2.0])))
t = torch.tensor([-1.0, 3.0, 7.0])
print(F.relu(t, inplace=True) is t, t)
u = torch.tensor([-2.0, 0.5, 2.0])
F.hardtanh(u, inplace=True)
print(u)
h = torch.tensor([-1.0, 0.0, 0.5, 1.0, 2.0], requires_grad=True)
F.hardtanh(h).sum().backward()
print(h.grad)
print(torch.ones(2, 1).expand_as(torch.zeros(2, 3)))
print(nn.ReLU6(), nn.ReLU6(inplace=True), nn.Hardtanh(), nn.Hardtanh(-2, 3, inplace=True), nn.Dropout2d(), nn.Dropout1d(0.2),
      nn.Dropout3d(inplace=True), nn.Hardswish(), nn.SiLU(inplace=True))
try:
    F.hardtanh(h, 2.0, 1.0)
except ValueError as e:
    print("ValueError:", e)
s = torch.tensor([-1.0, 0.5])
nn.SiLU(inplace=True)(s)
w = torch.tensor([-4.0, 1.0])
nn.Hardswish(inplace=True)(w)
print(s, w)
channels = pattern(2 * 3 * 4, 8).reshape(2, 3, 4)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(F.dropout1d(channels, 0.5, training=False) is channels, F.dropout2d(channels, 0.0).equal(channels),
          F.dropout1d(channels, 1.0).abs().sum(), F.dropout3d(channels, 1.0).abs().sum(), F.dropout1d(channels[0], 1.0).sum())
print([str(w.message)[:60] for w in caught])
for bad in (lambda: F.dropout2d(channels, 1.5), lambda: F.dropout1d(channels[0, 0]), lambda: F.dropout2d(channels[0, 0], 0.5)):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)


for args in [dict(in_channels=4, out_channels=6, kernel_size=2, stride=2),
             dict(in_channels=4, out_channels=6, kernel_size=3, stride=2, padding=1, output_padding=1),
             dict(in_channels=4, out_channels=6, kernel_size=(3, 2), stride=(1, 3), padding=(2, 0), dilation=2, groups=2),
             dict(in_channels=4, out_channels=4, kernel_size=3, stride=1, padding=3, bias=False, groups=4)]:
    conv = nn.ConvTranspose2d(**args)
    fill(conv)
    print(conv, tuple(conv.weight.shape))
    x = pattern(2 * 4 * 5 * 6, 7).reshape(2, 4, 5, 6).requires_grad_()
    y = conv(x)
    (y * pattern(y.numel(), 3).reshape(y.shape)).sum().backward()
    print(tuple(y.shape), f"{y.sum().item():.5g} {y.abs().sum().item():.5g} {x.grad.abs().sum().item():.5g} "
          f"{conv.weight.grad.abs().sum().item():.5g}", y.grad_fn.name())
    compiled = torch.compile(conv)(x)
    print("compiled agrees:", torch.allclose(compiled, y, atol=1e-5))
up = nn.ConvTranspose2d(3, 2, 3, stride=2)
fill(up)
z = pattern(3 * 4 * 4, 1).reshape(3, 4, 4)
print(tuple(up(z).shape), tuple(up(z, output_size=[9, 10]).shape), tuple(up(z[None], output_size=(1, 2, 10, 9)).shape))
for bad in ([12, 12], [1, 9, 9]):
    try:
        up(z, output_size=bad)
    except ValueError as e:
        print("ValueError:", e)
one = nn.ConvTranspose1d(2, 3, 4, stride=3, padding=1, output_padding=2)
fill(one)
print(one, f"{one(pattern(2 * 2 * 5, 2).reshape(2, 2, 5)).sum().item():.5g}")
try:
    F.conv_transpose2d(pattern(16, 1).reshape(1, 1, 4, 4), pattern(9, 1).reshape(1, 1, 3, 3), stride=1, output_padding=1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.conv_transpose2d(pattern(32, 1).reshape(1, 2, 4, 4), pattern(9, 1).reshape(1, 1, 3, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.conv_transpose1d(torch.ones(1, 1, 4), torch.ones(1, 1, 3), output_padding=1)
except RuntimeError as e:
    print("RuntimeError:", e)
s = torch.zeros(2, 3, 4).size()
print(s[1:], s[::2], s[0], type(s[:1]).__name__, s + (5,), (5,) + s, s[:1] * 2, 2 * s[1:], s + s, (1,) + (2,))
try:
    s + [1]
except TypeError as e:
    print("TypeError:", e)

weight = torch.zeros(3, 4)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    nn.init.kaiming_normal(weight)
    nn.init.constant(weight, 0.5)
    nn.init.xavier_uniform(torch.zeros(2, 2))
print([str(w.message) for w in caught], [w.category.__name__ for w in caught])
print(weight.sum(), nn.init.kaiming_normal.__name__)
print(torch.inf, -torch.inf, torch.nan, torch.pi, torch.e, torch.tensor([1.0, 2.0]).masked_fill(torch.tensor([True, False]), -torch.inf))
# Grouped and depthwise convolutions' weight gradients (one convolution over all groups).
for (n, cin, cout, groups, k, stride, pad, dil, size) in [(2, 4, 6, 2, 3, 2, 1, 2, 9), (3, 6, 6, 6, 3, 1, 1, 1, 7),
                                                         (1, 4, 8, 4, 2, 3, 0, 1, 8)]:
    x = pattern(n * cin * size * (size + 1), 1).reshape(n, cin, size, size + 1).requires_grad_()
    w = pattern(cout * (cin // groups) * k * k, 2).reshape(cout, cin // groups, k, k).requires_grad_()
    y = F.conv2d(x, w, None, stride, pad, dil, groups)
    (y * pattern(y.numel(), 3).reshape(y.shape)).sum().backward()
    print(tuple(y.shape), f"{w.grad.sum().item():.4f} {w.grad.abs().sum().item():.4f} {x.grad.abs().sum().item():.4f}")
x = pattern(2 * 4 * 10, 4).reshape(2, 4, 10).requires_grad_()
w = pattern(8 * 2 * 3, 5).reshape(8, 2, 3).requires_grad_()
F.conv1d(x, w, None, 2, 1, 1, 2).pow(2).sum().backward()
print(f"{w.grad.sum().item():.4f} {w.grad.abs().sum().item():.4f}")
