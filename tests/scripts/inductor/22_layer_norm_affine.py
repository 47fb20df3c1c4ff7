import torch
import torch.nn.functional as F

torch.manual_seed(0)


def fn(x, w, b):
    return F.layer_norm(x, (32,), w, b)


inputs = (torch.randn(4, 16, 32), torch.randn(32), torch.randn(32))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
