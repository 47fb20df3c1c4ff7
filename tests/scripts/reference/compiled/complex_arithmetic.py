# Complex arithmetic compiled by inductor: complex inputs and results, products, quotients,
# sums, views and joins give eager's values (within float32 rounding) and print as PyTorch.
import torch


def pointwise(z, w, x):
    return z * w + x, (z - 2.0 * w) / (w + 1), -z.abs() + w.angle(), z * 0.5 - x


def reductions_and_views(z, w):
    zt = z.transpose(0, 1)
    joined = torch.cat([z, w], dim=-1)
    stacked = torch.stack([z, w], dim=0)
    return zt.sum(dim=1), z.mean(), joined.reshape(-1)[::3], stacked.flatten(1).sum(-1), z.unsqueeze(-1).expand(2, 3, 2)


def products(a, b):
    return a @ b, torch.bmm(a.unsqueeze(0), b.unsqueeze(0)).squeeze(0), (a == a.conj()), torch.view_as_real(a).sum(-1)


z = torch.complex(torch.linspace(-1, 2, 6).reshape(2, 3), torch.linspace(3, -0.5, 6).reshape(2, 3))
w = torch.polar(torch.linspace(0.5, 2, 6).reshape(2, 3), torch.linspace(-3, 3, 6).reshape(2, 3))
x = torch.linspace(0, 1, 3)
a = torch.complex(torch.arange(6.0).reshape(2, 3) / 7, torch.ones(2, 3))
b = torch.complex(torch.ones(3, 2), torch.arange(6.0).reshape(3, 2) / 5 - 0.5)

for fn, args in [(pointwise, (z, w, x)), (reductions_and_views, (z, w)), (products, (a, b))]:
    eager = fn(*args)
    compiled = torch.compile(fn, backend="inductor", fullgraph=True)(*args)
    for e, c in zip(eager, compiled):
        same = torch.equal(e, c) if not (e.is_complex() or e.is_floating_point()) else torch.allclose(
            torch.view_as_real(e) if e.is_complex() else e, torch.view_as_real(c) if c.is_complex() else c, atol=1e-6)
        print(fn.__name__, c.dtype, tuple(c.shape), same)
        print(c)
