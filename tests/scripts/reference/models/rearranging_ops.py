# The tensor ops models use to rearrange, pick and contract: F.pad in its four modes,
# F.interpolate (nearest and the linear family), flip, repeat, einsum's common contractions
# (ellipses too), baddbmm, topk and multinomial, and the named results of max/min/topk;
# then an upsampling block that pads and interpolates, compiled.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(12.0).reshape(1, 2, 2, 3)
print(F.pad(x, (1, 2)))
print(F.pad(x, (1, 0, 0, 1), value=-1.0))
print(F.pad(x, (-1, 1)))
print(F.pad(x, (2, 1, 1, 1), mode="reflect"))
print(F.pad(x, (1, 2, 0, 1), mode="replicate"))
print(F.pad(x[0], (3, 1), mode="circular"))
print(F.pad(torch.arange(4).reshape(2, 2), (1, 1)))
for pad, mode in [((1,), "constant"), ((3, 0), "reflect"), ((1, 1), "wrap"), ((1, 1), "circular"), ((4, 0, 0, 0), "circular")]:
    try:
        F.pad(x, pad, mode=mode)
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)

image = torch.arange(6.0).reshape(1, 1, 2, 3)
print(F.interpolate(image, scale_factor=2))
print(F.interpolate(image, size=(3, 4)))
print(F.interpolate(image, size=5, mode="nearest"))
print(F.interpolate(image, scale_factor=(1.5, 0.5)))
print(F.interpolate(torch.arange(5.0).reshape(1, 1, 5), size=3))
print(nn.Upsample(scale_factor=2)(torch.arange(4.0).reshape(1, 1, 2, 2)).shape)
# The linear family: two neighbours blended per dim, with and without align_corners.
print(F.interpolate(image, size=(3, 5), mode="bilinear"), F.interpolate(image, scale_factor=2, mode="bilinear", align_corners=True))
print(F.interpolate(torch.arange(4.0).reshape(1, 1, 4), size=7, mode="linear"), F.interpolate(image.double(), scale_factor=0.5, mode="bilinear"))
print(F.interpolate(torch.arange(8.0).reshape(1, 1, 2, 2, 2), scale_factor=1.5, mode="trilinear")[0, 0, 1])
upsample = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
print(upsample, upsample(image)[0, 0, 1])
for kwargs in [{}, {"size": 3, "scale_factor": 2}, {"size": 3, "align_corners": True}]:
    try:
        F.interpolate(image, **kwargs)
    except ValueError as e:
        print(type(e).__name__, e)
for mode in ["linear", "trilinear"]:
    try:
        F.interpolate(image, size=2, mode=mode)
    except NotImplementedError as e:
        print(type(e).__name__, e)
# Sizes PyTorch's kernels refuse (none left, past int64) and inputs without 1 to 3 spatial dims.
for source, kwargs in [(image, {"scale_factor": 0.4}), (image, {"size": (0, 2)}), (torch.ones(1, 1, 4), {"scale_factor": -2.0}),
                  (image, {"scale_factor": 1e30}), (image, {"scale_factor": float("nan")}),
                  (torch.ones(1, 1, 2, 4, 5), {"scale_factor": 0.1, "mode": "trilinear"}),
                  (torch.ones(1, 4), {"scale_factor": 2.0}), (torch.ones(1, 1, 2, 2, 2, 2), {"size": 3, "mode": "bilinear"})]:
    try:
        F.interpolate(source, **kwargs)
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)

m = torch.arange(6).reshape(2, 3)
print(m.flip(0), m.flip([0, 1]), torch.flip(m, (1,)))
print(m.repeat(2, 2), m.repeat(2, 1, 2).shape, m.repeat((1, 3)))
for f in [lambda: m.flip(0, 0), lambda: m.repeat(2), lambda: m.repeat(-1, 2)]:
    try:
        f()
    except RuntimeError as e:
        print(type(e).__name__, e)

a = torch.arange(24.0).reshape(2, 3, 4) / 10
b = torch.arange(40.0).reshape(2, 4, 5) / 10
print(torch.einsum("bij,bjk->bik", a, b))
print(torch.einsum("bij,bkj->bik", a, a))
print(torch.einsum("ij->ji", m), torch.einsum("ij->", m), torch.einsum("ij->j", m))
print(torch.einsum("i,j->ij", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])))
print(torch.einsum("i,i", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print(torch.einsum("bhqd,bhkd->bhqk", a.reshape(1, 2, 3, 4), a.reshape(1, 2, 3, 4)).shape)
print(torch.einsum("ij,jk,kl->il", m.float(), m.t().float(), m.float()))
print(torch.einsum("bij,jk", a, b[0]))
# Ellipses: right-aligned and broadcast across operands; without '->' their dims lead.
print(torch.einsum("...ij,...jk", a.reshape(2, 1, 3, 4), b[:1]))
print(torch.einsum("bi...,bi...->b...", a, a), torch.einsum("...i,...i", a, a[0]))
print(torch.einsum("ba...,a", a, torch.tensor([1.0, -1.0, 0.5])), torch.einsum("i...->...", m))
for f in [lambda: torch.einsum("ij,jk", m), lambda: torch.einsum("ijk,jk->i", m, m), lambda: torch.einsum("ij...,j", a[0, 0], a[0, 0]),
          lambda: torch.einsum("ba,a", a[0], a[0, 0])]:
    try:
        f()
    except RuntimeError as e:
        print(type(e).__name__, e)

bias = torch.tensor([[1.0, 0.0, 0.0, 0.0, 0.0]])
print(torch.baddbmm(bias, a, b))
print(torch.baddbmm(bias, a, b, beta=0.5, alpha=2.0))
print(torch.baddbmm(torch.full((2, 3, 5), float("nan")), a, b, beta=0))

scores = torch.tensor([[0.1, 2.5, -1.0, 0.7], [3.0, -2.0, 0.4, 1.5]])
print(torch.topk(scores, 2))
values, indices = scores.topk(3, dim=1, largest=False)
print(values, indices)
print(scores.topk(1, dim=0).indices)
print(scores.max(dim=1))
result = scores.min(1)
print(result.values, result[1], len(result))
print(type(result).__name__, type(scores.topk(1)).__name__, type(torch.max(scores, 0)).__name__)
try:
    scores.topk(5)
except RuntimeError as e:
    print(type(e).__name__, e)

torch.manual_seed(0)
probabilities = torch.tensor([[0.0, 1.0, 0.0], [0.3, 0.0, 0.7]])
picks = torch.multinomial(probabilities, 2)
print(picks.shape, picks.dtype, picks[0, 0].item(), sorted(picks[1].tolist()))
draws = torch.multinomial(torch.tensor([1.0, 3.0]), 4000, replacement=True)
print(draws.shape, abs(draws.float().mean().item() - 0.75) < 0.05)
for p in [torch.tensor([0.5, -1.0]), torch.zeros(3), torch.ones(2, 2, 2)]:
    try:
        torch.multinomial(p, 1)
    except RuntimeError as e:
        print(type(e).__name__, e)


class Upsampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 2, 3)

    def forward(self, x):
        y = F.interpolate(x, scale_factor=2) + F.interpolate(x, scale_factor=2, mode="bilinear")
        return self.conv(F.pad(y, (1, 1, 1, 1), mode="replicate")).flip(-1)


# In float64: a float32 convolution's fourth decimal depends on the host's GEMM kernel (its
# summation order), in PyTorch as here.
model = Upsampler().double()
with torch.no_grad():
    model.conv.weight.copy_(torch.linspace(-1.0, 1.0, 36).reshape(2, 2, 3, 3))
    model.conv.bias.copy_(torch.tensor([0.5, -0.5]))
compiled = torch.compile(model)
wide = x.double()
with torch.no_grad():
    print(compiled(wide))
    print(torch.allclose(compiled(wide), model(wide)))
