import torch
import torch.nn.functional as F


# Attention over [batch, heads, time, head_dim]: 4-D matmuls (folded into bmm), a causal
# mask from tril and masked_fill, softmax; and scaled_dot_product_attention, which the
# script library composes from the same ops.
def fn(q, k, v):
    scores = q @ k.transpose(-2, -1) / 4.0
    causal = torch.ones(5, 5, dtype=torch.bool).tril()
    weights = torch.softmax(scores.masked_fill(causal.logical_not(), float("-inf")), dim=-1)
    return weights @ v, F.scaled_dot_product_attention(q, k, v, is_causal=True)


q = torch.linspace(-1.0, 1.0, 160).reshape(2, 2, 5, 8)
k = torch.linspace(1.0, -1.0, 160).reshape(2, 2, 5, 8)
v = torch.linspace(0.0, 2.0, 160).reshape(2, 2, 5, 8)
expected = fn(q, k, v)
actual = torch.compile(fn)(q, k, v)
for a, e in zip(actual, expected):
    print(torch.allclose(a, e, rtol=1e-05, atol=1e-06), a.shape, a.dtype)
