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
