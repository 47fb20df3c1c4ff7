import torch
import torch.nn.functional as F

torch.manual_seed(0)


def fn(x, w, b):
    return F.gelu(F.linear(x, w, b))


inputs = (torch.randn(8, 33), torch.randn(17, 33), torch.randn(17))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual, expected, rtol=1e-05, atol=1e-06), actual.shape, actual.dtype)
