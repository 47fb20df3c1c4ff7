import torch
import torch.nn.functional as F


# Loads at rewritten positions: flip, repeat, the four padding modes (index_select of the
# positions each padded dim reads, constant padding masked), nearest-neighbour resizing;
# einsum and baddbmm as the batched products they trace to.
def fn(x, a, b):
    return (x.flip(-1) * 2, x.repeat(2, 1, 3), F.pad(x, (2, 1, 0, 1), value=-1.0), F.pad(x, (2, 1), mode="reflect"),
            F.pad(x, (1, 2, 2, 0), mode="replicate"), F.pad(x, (3, 2), mode="circular"),
            F.interpolate(x.unsqueeze(0), scale_factor=(1.5, 2)).squeeze(0), torch.einsum("bij,bkj->bik", a, b),
            torch.baddbmm(x[:, :3, :4], a, b.transpose(1, 2), beta=0.5, alpha=-1.0))


x = torch.linspace(-3.0, 3.0, 2 * 5 * 7).reshape(2, 5, 7).cos()
a = torch.linspace(-1.0, 1.0, 2 * 3 * 6).reshape(2, 3, 6)
b = torch.linspace(0.0, 2.0, 2 * 4 * 6).reshape(2, 4, 6).sin()
expected = fn(x, a, b)
actual = torch.compile(fn)(x, a, b)
for e, c in zip(expected, actual):
    print(torch.allclose(c, e, rtol=1e-05, atol=1e-06), c.shape, c.dtype)
