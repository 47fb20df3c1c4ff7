import torch
import torch.nn.functional as F

torch.manual_seed(0)


def fn(a, w, b):
    return torch.softmax(a, dim=-1), F.layer_norm(a, (8,), w, b), F.log_softmax(a, dim=0)


x = torch.randn(8, 33)
inputs = (x.t(), torch.randn(8), torch.randn(8))
expected = fn(*inputs)
actual = torch.compile(fn)(*inputs)
print(torch.allclose(actual[0], expected[0], rtol=1e-05, atol=1e-06), actual[0].shape, actual[0].dtype)
print(torch.allclose(actual[1], expected[1], rtol=1e-05, atol=1e-06), actual[1].shape, actual[1].dtype)
print(torch.allclose(actual[2], expected[2], rtol=1e-05, atol=1e-06), actual[2].shape, actual[2].dtype)
