# torch.signal.windows: the window functions, computed in float64 and rounded once to the
# dtype asked for. A periodic window (sym=False) is the symmetric one of M + 1 points
# without its last.
import math

import torch


def _points(M, sym, dtype, make):
    if M < 0:
        raise ValueError(f"M must be non-negative, got {M}")
    dtype = torch.get_default_dtype() if dtype is None else dtype
    if M == 0:
        return torch.zeros(0, dtype=dtype)
    if M == 1:
        return torch.ones(1, dtype=dtype)
    count = M if sym else M + 1
    window = make(torch.arange(count, dtype=torch.float64), count)
    return window[:M].to(dtype)


def general_cosine(M, *, a, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    def make(n, count):
        out = torch.zeros_like(n)
        for k, coefficient in enumerate(a):
            out = out + (-1) ** k * coefficient * torch.cos(2 * math.pi * k * n / (count - 1))
        return out
    return _points(M, sym, dtype, make)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype)


def hann(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_cosine(M, a=[0.5, 0.5], sym=sym, dtype=dtype)


def hamming(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_hamming(M, alpha=0.54, sym=sym, dtype=dtype)


def blackman(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype)


def nuttall(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym, dtype=dtype)


def bartlett(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return _points(M, sym, dtype, lambda n, count: 1 - torch.abs(2 * n / (count - 1) - 1))


def cosine(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return _points(M, sym, dtype, lambda n, count: torch.sin(math.pi * (n + 0.5) / count))


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    return _points(M, sym, dtype, lambda n, count: torch.exp(-((n - (count - 1) / 2) / std) ** 2 / 2))


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")

    def make(n, count):
        middle = (count - 1) / 2 if center is None else center
        return torch.exp(-torch.abs(n - middle) / tau)
    return _points(M, sym, dtype, make)


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")

    def make(n, count):
        ratio = 2 * n / (count - 1) - 1
        return torch.i0(beta * torch.sqrt(torch.clamp(1 - ratio * ratio, min=0))) / torch.i0(torch.tensor(float(beta), dtype=torch.float64))
    return _points(M, sym, dtype, make)
