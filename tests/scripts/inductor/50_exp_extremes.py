import torch


# exp at the ends of its range, in vectorised loops: below -104 (float) or -746 (double)
# the result is exactly 0, -inf gives 0, large inputs overflow to inf, NaN stays NaN; and
# a softmax under a causal mask, whose masked half is exp(-inf).
def fn(x, scores):
    mask = torch.ones(scores.shape[-2], scores.shape[-1], dtype=torch.bool).tril()
    return x.exp(), scores.masked_fill(mask.logical_not(), float("-inf")).softmax(dim=-1)


edges = [float("-inf"), -1.0e4, -746.5, -745.5, -104.5, -103.95, -90.0, -1.0, 0.0, 1.0, 88.5, 89.0, 710.0,
         float("inf"), float("nan")]
for dtype in (torch.float32, torch.float64):
    x = torch.tensor(edges * 5, dtype=dtype)
    scores = torch.linspace(-3.0, 3.0, 2 * 37 * 37, dtype=dtype).reshape(2, 37, 37).sin()
    expected = fn(x, scores)
    actual = torch.compile(fn)(x, scores)
    for a, e in zip(actual, expected):
        same_zeros = torch.equal(a == 0, e == 0)
        print(torch.allclose(a, e, rtol=1e-06, atol=0.0, equal_nan=True) and same_zeros, a.shape, a.dtype)
