import torch.nn.functional as F
import torch
x = torch.arange(10.0).reshape(2, 5)
print(x.split(2, dim=1))
print(x.split([1, 4], 1), torch.split(x, 1), x.chunk(3, dim=1), torch.chunk(x, 2, 1))
a, b = x.chunk(2)
print(a.shape, b, torch.arange(6.0).chunk(4), torch.arange(5.0).chunk(5))
try:
    x.split([2, 2], dim=1)
except RuntimeError as e:
    print(e)
@torch.compile(backend="eager")
def f(t):
    q, k, v = t.split(2, dim=-1)
    return q * k + v
print(f(torch.arange(12.0).reshape(2, 6)))
q = torch.linspace(-1, 1, 24).reshape(1, 2, 3, 4)
k = torch.linspace(1, -1, 24).reshape(1, 2, 3, 4)
v = torch.arange(24.0).reshape(1, 2, 3, 4) / 10
print(F.scaled_dot_product_attention(q, k, v))
print(F.scaled_dot_product_attention(q, k, v, is_causal=True))
mask = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])
print(F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.5))
@torch.compile(backend="inductor")
def attend(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(torch.allclose(attend(q, k, v), F.scaled_dot_product_attention(q, k, v, is_causal=True), atol=1e-6))


@torch.compile(backend="inductor")
def attend_masked(q, k, v, mask):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask).softmax(-1)


print(torch.allclose(attend_masked(q, k, v, mask), F.scaled_dot_product_attention(q, k, v, attn_mask=mask).softmax(-1), atol=1e-6))
print(F.mse_loss(q, k), F.l1_loss(q, k, reduction="sum"))
