import math

import torch
import torch.nn.functional as F


# Fused attention (the CPU flash kernel): causal and not, fewer or more keys than queries,
# sizes that no block of 64 divides, a given scale, a value depth unlike the key depth,
# float32 and float64; each against eager and against the textbook formula.
def fn(q, k, v, k2, v2):
    return (F.scaled_dot_product_attention(q, k, v, is_causal=True), F.scaled_dot_product_attention(q, k, v),
            F.scaled_dot_product_attention(q, k2, v2, is_causal=True, scale=0.3),
            F.scaled_dot_product_attention(q, k2, v2) * 2)


def formula(q, k, v, causal, scale):
    scores = q @ k.transpose(-2, -1) * scale
    if causal:
        scores = scores.masked_fill(torch.ones(q.size(-2), k.size(-2), dtype=torch.bool).tril().logical_not(), float("-inf"))
    return scores.softmax(-1) @ v


for dtype in (torch.float64, torch.float32):
    def grid(*shape):
        n = 1
        for s in shape:
            n *= s
        return torch.linspace(-2.0, 2.0, n, dtype=dtype).reshape(*shape).sin()
    q, k, v = grid(2, 3, 131, 16), grid(2, 3, 131, 16).cos(), grid(2, 3, 131, 24)
    k2, v2 = grid(2, 3, 70, 16) * 1.5, grid(2, 3, 70, 24).cos()
    expected = fn(q, k, v, k2, v2)
    actual = torch.compile(fn)(q, k, v, k2, v2)
    textbook = (formula(q, k, v, True, 0.25), formula(q, k, v, False, 0.25), formula(q, k2, v2, True, 0.3),
                formula(q, k2, v2, False, 0.25) * 2)
    tolerance = 1e-5 if dtype == torch.float32 else 1e-12
    for a, e, t in zip(actual, expected, textbook):
        print(torch.allclose(a, e, rtol=tolerance, atol=tolerance) and torch.allclose(a, t, rtol=tolerance, atol=tolerance),
              a.shape, a.dtype)


# Heads split from one qkv product: the kernel reads the views in place (rows 3 * C apart)
# and writes [B, L, H, D] storage, so the transpose and reshape after it are views. 600
# keys: rows past 512 take two key blocks (the running maximum carried between them), as
# does the single last query row over every key.
def heads(qkv, h):
    b, t, c3 = qkv.shape
    q, k, v = [x.view(b, t, h, c3 // 3 // h).transpose(1, 2) for x in qkv.split(c3 // 3, dim=2)]
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return y, y.transpose(1, 2).reshape(b, t, c3 // 3), F.scaled_dot_product_attention(q[:, :, -1:], k, v)


for dtype in (torch.float64, torch.float32):
    qkv = torch.linspace(-3.0, 3.0, 2 * 600 * 48, dtype=dtype).reshape(2, 600, 48).sin() * 2
    expected = heads(qkv, 2)
    actual = torch.compile(heads)(qkv, 2)
    q, k, v = [x.view(2, 600, 2, 8).transpose(1, 2).contiguous() for x in qkv.split(16, dim=2)]
    causal = formula(q, k, v, True, 8 ** -0.5)
    textbook = (causal, causal.transpose(1, 2).reshape(2, 600, 16), formula(q[:, :, -1:], k, v, False, 8 ** -0.5))
    tolerance = 1e-5 if dtype == torch.float32 else 1e-12
    for a, e, t in zip(actual, expected, textbook):
        print(torch.allclose(a, e, rtol=tolerance, atol=tolerance) and torch.allclose(a, t, rtol=tolerance, atol=tolerance),
              a.shape, a.stride(), e.stride())
