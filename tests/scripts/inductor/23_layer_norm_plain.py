import torch
import torch.nn.functional as F

torch.manual_seed(0)


def fn(x, y):
    return F.layer_norm(x, (33,)), F.layer_norm(y, (16, 32), eps=1e-6)


inputs = (torch.randn(8, 33), torch.randn(4, 16, 32))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
