import torch
import torch.nn.functional as F


# Convolutions as extern kernels (padding, stride, dilation, groups, bias; 1-D and 2-D;
# float32 through oneDNN and float64 through plain loops) and pooling as reductions over
# the window: max pooling with padding, ceil_mode and dilation, average pooling without
# padding, adaptive average pooling with equal windows.
def fn(x, w, b, g, s):
    y = F.conv2d(x, w, b, stride=1, padding=2, dilation=2).relu()
    z = F.conv2d(y, g, None, stride=2, padding=1, groups=2)
    return (F.max_pool2d(y, 3, 2, 1, ceil_mode=True), F.max_pool2d(y, 2, 1, 0, 2), F.avg_pool2d(z, 2),
            F.adaptive_avg_pool2d(z, (1, 1)), F.adaptive_avg_pool2d(y, (3, 1)), F.conv1d(s, w[:, :, 0], b, padding=1))


x = torch.linspace(-2.0, 2.0, 2 * 3 * 9 * 9).reshape(2, 3, 9, 9).sin()
w = torch.linspace(-0.5, 0.5, 4 * 3 * 3 * 3).reshape(4, 3, 3, 3).cos()
b = torch.tensor([0.1, -0.2, 0.3, 0.0])
g = torch.linspace(-1.0, 1.0, 6 * 2 * 3 * 3).reshape(6, 2, 3, 3)
s = torch.linspace(-1.0, 1.0, 2 * 3 * 11).reshape(2, 3, 11)
results = {}
for dtype in (torch.float32, torch.float64):
    inputs = [t.to(dtype) for t in (x, w, b, g, s)]
    expected = fn(*inputs)
    actual = torch.compile(fn)(*inputs)
    results[dtype] = actual
    for a, e in zip(actual, expected):
        print(torch.allclose(a, e, rtol=1e-05, atol=1e-05), a.shape, a.dtype)
# float32 convolutions (a library's blocked layouts) agree with float64 ones (plain loops).
for single, double in zip(results[torch.float32], results[torch.float64]):
    print(torch.allclose(single, double.float(), rtol=1e-04, atol=1e-05), "float32 against float64", single.shape)
