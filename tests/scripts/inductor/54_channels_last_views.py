import torch
import torch.nn.functional as F
from torch._inductor import test_operators


# Views of a channels-last convolution output (select, permute, flatten, slice, a strided
# slice), realized in the middle of the graph and fed to another convolution: each keeps
# the order its strides still have, or none.
def fn(x, w, v):
    y = F.conv2d(x, w, padding=1)
    first = test_operators.realize(y[0] * 2)
    channels_last = test_operators.realize(y.permute(0, 2, 3, 1) + 1)
    flat = test_operators.realize(y.flatten(2).relu())
    middle = test_operators.realize(y[:, 1:3].sigmoid())
    strided = test_operators.realize(y[:, :, ::2].tanh())
    again = F.conv2d(channels_last.permute(0, 3, 1, 2), v)
    return first + 1, channels_last * 3, flat.sum(-1), middle - 1, strided, again, F.conv2d(middle, v[:, :2])


x = torch.linspace(-1.0, 1.0, 2 * 3 * 6 * 5).reshape(2, 3, 6, 5)
w = torch.linspace(-0.5, 0.5, 4 * 3 * 3 * 3).reshape(4, 3, 3, 3)
v = torch.linspace(0.4, -0.4, 5 * 4).reshape(5, 4, 1, 1)
expected = fn(x, w, v)
actual = torch.compile(fn)(x, w, v)
for a, e in zip(actual, expected):
    print(torch.allclose(a, e, rtol=1e-05, atol=1e-05) and a.stride() == e.stride(), a.shape, a.dtype)


# A view of a channels-last buffer returned as it is gets eager's strides.
def views(x, w):
    y = F.conv2d(x, w, padding=1)
    return y.permute(0, 2, 3, 1), y[1], y.transpose(2, 3)


for a, e in zip(torch.compile(views)(x, w), views(x, w)):
    print(torch.allclose(a, e, rtol=1e-05, atol=1e-05) and a.stride() == e.stride(), a.shape, a.stride())
