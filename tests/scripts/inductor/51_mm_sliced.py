import torch


# Products big enough for the compiled code to split them across threads: along rows when
# the result is taller than wide, along columns when wider, with either operand transposed,
# sizes no slice divides evenly, float32 and float64, and a batch of one.
def fn(tall, wide, a, b, at, bt, batch_a, batch_b):
    return (tall @ b, a @ wide, at.t() @ wide, a @ bt.t(), at.t() @ bt.t(), tall @ bt.t(),
            torch.bmm(batch_a, batch_b))


def inputs(dtype):
    def grid(*shape):
        count = 1
        for size in shape:
            count *= size
        return torch.linspace(-1.0, 1.0, count, dtype=dtype).reshape(*shape).sin()
    return (grid(301, 41), grid(41, 299), grid(97, 41), grid(41, 97), grid(41, 97), grid(97, 41),
            grid(1, 95, 43), grid(1, 43, 301))


for dtype in (torch.float32, torch.float64):
    args = inputs(dtype)
    expected = fn(*args)
    actual = torch.compile(fn)(*args)
    for a, e in zip(actual, expected):
        print(torch.allclose(a, e, rtol=1e-05, atol=1e-05), a.shape, a.dtype)
