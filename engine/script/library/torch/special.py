# torch.special: PyTorch's special functions that are arithmetic on other ops (the Bessel,
# orthogonal-polynomial and zeta families are not here yet: AttributeError says so).
import math

import torch
from torch._composite_math import _times_log

expit = torch.sigmoid
erf = torch.erf
erfc = torch.erfc
log1p = torch.log1p
expm1 = torch.expm1
exp2 = torch.exp2
round = torch.round
xlogy = torch.xlogy
logsumexp = torch.logsumexp
i0 = torch.i0
gammaln = torch.lgamma
digamma = psi = torch.digamma
erfinv = torch.erfinv
multigammaln = torch.mvlgamma
polygamma = torch.polygamma


def softmax(input, dim, *, dtype=None):
    return torch.softmax(input if dtype is None else input.to(dtype), dim)


def log_softmax(input, dim, *, dtype=None):
    return torch.log_softmax(input if dtype is None else input.to(dtype), dim)


def _float(input):
    return input if input.is_floating_point() else input.to(torch.get_default_dtype())


def sinc(input):
    """sin(pi x) / (pi x), 1 at 0."""
    x = _float(input)
    scaled = x * math.pi
    return torch.where(x == 0, torch.ones_like(x), torch.sin(scaled) / scaled)


def logit(input, eps=None):
    x = _float(input)
    if eps is not None:
        x = x.clamp(eps, 1 - eps)
    return torch.log(x / (1 - x))


def ndtr(input):
    """The standard normal's cumulative distribution."""
    return 0.5 * torch.erfc(-_float(input) * 0.7071067811865476)


def log_ndtr(input):
    """log(ndtr(x)), computed in float64 so far tails keep their digits."""
    x = _float(input)
    return torch.log(ndtr(x.double())).to(x.dtype)


def erfcx(input):
    """exp(x^2) erfc(x), in float64: exact enough up to x = 26, beyond which the asymptote
    1 / (x sqrt(pi)) is used."""
    x = _float(input)
    wide = x.double()
    direct = torch.exp(wide * wide) * torch.erfc(wide)
    asymptote = 1 / (wide * 1.7724538509055159)
    return torch.where(wide > 26, asymptote, direct).to(x.dtype)


def xlog1py(input, other):
    return _times_log(input, other, torch.log1p)


class _Entr(torch.autograd.Function):
    """-x log x: 0 at 0, -inf below; its gradient -(1 + log x) everywhere, as PyTorch's (inf at
    0, nan below), which the where() that fixes the values would hide."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        safe = torch.where(x > 0, x, torch.ones_like(x))
        out = torch.where(x > 0, -x * torch.log(safe), torch.zeros_like(x))
        return torch.where(x < 0, torch.full_like(x, float("-inf")), out)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -(1 + torch.log(x))


def entr(input):
    return _Entr.apply(_float(input))
