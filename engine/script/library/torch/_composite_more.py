# More torch functions composed of other ops: two-argument math (atan2, fmod, ldexp, frexp),
# searching (isin, bucketize, searchsorted), products and distances of vectors, and the
# builders (meshgrid, logspace, block_diag, cartesian_prod, combinations).
import math

import torch
from torch.return_types import _make


def _promotion_probe(value):
    """value as an empty stand-in of its promotion category: a tensor with dims, a 0-dim
    tensor, or a Python number."""
    if not isinstance(value, torch.Tensor):
        return value
    return value.detach().reshape(-1)[:0] if value.dim() else value.detach()


def result_type(tensor1, tensor2):
    """The dtype an arithmetic op on the two gives (PyTorch's type promotion, as add does it)."""
    return torch.add(_promotion_probe(tensor1), _promotion_probe(tensor2)).dtype


def promote_types(type1, type2):
    return (torch.empty(0, dtype=type1) + torch.empty(0, dtype=type2)).dtype


def _wide(value):
    """float64 for computing (then rounded once), as PyTorch's libm calls are near-exact."""
    if not isinstance(value, torch.Tensor):
        return torch.tensor(value, dtype=torch.float64)
    return value.double()


def _result_dtype(*values):
    tensors = [v for v in values if isinstance(v, torch.Tensor)]
    dtype = torch.result_type(*values) if len(values) == 2 else tensors[0].dtype
    return dtype if dtype.is_floating_point else torch.get_default_dtype()


def atan2(input, other):
    """The angle of (other, input), in float64: atan(input / other) turned to its quadrant,
    the signs of zeros kept."""
    y, x = _wide(input), _wide(other)
    y, x = torch.broadcast_tensors(y, x)
    turn = torch.where(torch.signbit(y), torch.full_like(y, -math.pi), torch.full_like(y, math.pi))
    behind = torch.signbit(x)
    angle = torch.atan(y / x)
    angle = torch.where(behind, angle + turn, angle)
    on_axis = (x == 0) & (y == 0)
    angle = torch.where(on_axis, torch.where(behind, turn, y), angle)
    corners = x.isinf() & y.isinf()
    quarter = torch.where(behind, torch.full_like(y, 0.75 * math.pi), torch.full_like(y, 0.25 * math.pi))
    angle = torch.where(corners, torch.where(torch.signbit(y), -quarter, quarter), angle)
    return angle.to(_result_dtype(input, other))


def fmod(input, other):
    """The remainder with the dividend's sign (C's fmod)."""
    dtype = torch.result_type(input, other)
    if not dtype.is_floating_point:
        quotient = torch.div(input, other, rounding_mode="trunc")
        return (input - quotient * other).to(dtype)
    a, b = _wide(input), _wide(other)
    rest = a - torch.trunc(a / b) * b
    rest = torch.where(rest == 0, torch.zeros_like(rest) * torch.sign(a), rest)  # keeps -0.0 for a negative dividend
    return torch.where(b.isinf() & a.isfinite(), a, rest).to(dtype)


def ldexp(input, other):
    return input * torch.pow(2.0, other).to(_result_dtype(input))


def frexp(input):
    """mantissa in [0.5, 1) and exponent with input = mantissa * 2 ** exponent (0 for 0,
    inf and nan)."""
    if not input.is_floating_point():
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    x = input.double()
    finite = x.isfinite() & (x != 0)
    safe = torch.where(finite, x.abs(), torch.ones_like(x))
    exponent = torch.floor(torch.log2(safe)) + 1
    mantissa = x / torch.pow(2.0, exponent)
    big = mantissa.abs() >= 1  # log2 rounded up at a power of two
    exponent = torch.where(big, exponent + 1, exponent)
    mantissa = torch.where(big, mantissa / 2, mantissa)
    mantissa = torch.where(finite, mantissa, x)
    exponent = torch.where(finite, exponent, torch.zeros_like(exponent))
    return _make("frexp", ("mantissa", "exponent"), (mantissa.to(input.dtype), exponent.to(torch.int32)))


def sinc(input):
    return torch.special.sinc(input)


def logit(input, eps=None):
    return torch.special.logit(input, eps)


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    if not isinstance(elements, torch.Tensor):
        elements = torch.tensor(elements)
    if not isinstance(test_elements, torch.Tensor):
        test_elements = torch.tensor(test_elements)
    found = (elements.unsqueeze(-1) == test_elements.reshape(-1)).any(-1)
    return ~found if invert else found


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The bucket of each value: how many boundaries lie below it (at or below with right)."""
    if not isinstance(input, torch.Tensor):
        input = torch.tensor(input)
    below = (input.unsqueeze(-1) >= boundaries) if right else (input.unsqueeze(-1) > boundaries)
    return below.sum(-1).to(torch.int32 if out_int32 else torch.int64)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    if side is not None:
        right = side == "right"
    if sorter is not None:
        sorted_sequence = sorted_sequence.gather(-1, sorter)
    if not isinstance(input, torch.Tensor):
        input = torch.tensor(input, dtype=sorted_sequence.dtype)
    if sorted_sequence.dim() == 1:
        return bucketize(input, sorted_sequence, out_int32=out_int32, right=right)
    rows = sorted_sequence.unsqueeze(-2)  # [..., 1, M] against values [..., K, 1]
    below = (input.unsqueeze(-1) >= rows) if right else (input.unsqueeze(-1) > rows)
    return below.sum(-1).to(torch.int32 if out_int32 else torch.int64)


def cross(input, other, dim=None):
    """The cross product along dim, by default the first dim of size 3."""
    if dim is None:
        dim = next((d for d in range(input.dim()) if input.size(d) == 3), None)
        if dim is None:
            raise RuntimeError(f"no dimension of size 3 in input")
    return torch.linalg.cross(input, other, dim=dim)


def dist(input, other, p=2):
    return torch.linalg.vector_norm(input - other, p)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of x1 and each row of x2."""
    gaps = x1.unsqueeze(-2) - x2.unsqueeze(-3)  # [..., P, R, M]
    if gaps.numel() == 0:
        return gaps.sum(-1)
    return torch.linalg.vector_norm(gaps, p, dim=-1)


def cartesian_prod(*tensors):
    if len(tensors) == 1:
        return tensors[0]
    grids = torch.meshgrid(*tensors, indexing="ij")
    return torch.stack([g.reshape(-1) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    n = input.size(0)
    picks = []

    def extend(prefix, start):
        if len(prefix) == r:
            picks.append(list(prefix))
            return
        for i in range(start, n):
            extend(prefix + [i], i if with_replacement else i + 1)

    extend([], 0)
    if not picks:
        return input.new_zeros((0, r)) if r else input.new_zeros((0,))
    index = torch.tensor(picks, dtype=torch.int64)
    return input[index.reshape(-1)].reshape(len(picks), r)


def meshgrid(*tensors, indexing="ij"):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing == "xy" and len(tensors) >= 2:
        swapped = (tensors[1], tensors[0]) + tuple(tensors[2:])
        grids = meshgrid(*swapped, indexing="ij")
        return tuple(g.transpose(0, 1) for g in (grids[1], grids[0]) + tuple(grids[2:]))
    shape = [t.numel() for t in tensors]
    out = []
    for i, t in enumerate(tensors):
        view = [1] * len(tensors)
        view[i] = -1
        out.append(t.reshape(view).expand(shape))
    return tuple(out)


def logspace(start, end, steps, base=10.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    exponents = torch.linspace(start, end, steps, dtype=torch.float64)
    return torch.pow(base, exponents).to(torch.get_default_dtype() if dtype is None else dtype)


def block_diag(*tensors):
    mats = [t.reshape(1, -1) if t.dim() < 2 else t for t in (x.reshape(1, 1) if x.dim() == 0 else x for x in tensors)]
    rows = sum(m.size(0) for m in mats)
    cols = sum(m.size(1) for m in mats)
    dtype = mats[0].dtype
    for m in mats[1:]:
        dtype = torch.promote_types(dtype, m.dtype)
    parts, left = [], 0
    for m in mats:
        parts.append(torch.nn.functional.pad(m.to(dtype), (left, cols - left - m.size(1))))
        left += m.size(1)
    return torch.cat(parts, 0) if parts else torch.zeros((rows, cols), dtype=dtype)


def constant_pad_nd(input, pad, value=0):
    return torch.nn.functional.pad(input, pad, value=value)


def cov(input, *, correction=1, fweights=None, aweights=None):
    x = input if input.dim() == 2 else input.reshape(1, -1)
    if not x.is_floating_point():
        x = x.to(torch.get_default_dtype())
    n = x.size(1)
    weights = None
    if fweights is not None:
        weights = fweights.to(x.dtype)
    if aweights is not None:
        weights = aweights.to(x.dtype) if weights is None else weights * aweights
    if weights is None:
        mean = x.mean(1, keepdim=True)
        centred = x - mean
        total = torch.tensor(float(n), dtype=x.dtype)
        norm = total - correction
    else:
        total = weights.sum()
        mean = (x * weights).sum(1, keepdim=True) / total
        centred = x - mean
        norm = total - correction * ((weights * aweights).sum() / total if aweights is not None else 1)
    scaled = centred * weights if weights is not None else centred
    out = (scaled @ centred.t()) / torch.clamp(norm, min=0)
    return out.reshape(()) if x.size(0) == 1 else out  # one variable: its variance, a scalar


def corrcoef(input):
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = torch.diagonal(c).sqrt()
    out = c / d.unsqueeze(0) / d.unsqueeze(1)
    return out.clamp(-1, 1)


def renorm(input, p, dim, maxnorm):
    """Each slice along dim scaled down to a p-norm of at most maxnorm."""
    others = [d for d in range(input.dim()) if d != dim % input.dim()]
    norms = torch.linalg.vector_norm(input, p, dim=others, keepdim=True)
    factor = torch.where(norms > maxnorm, maxnorm / (norms + 1e-7), torch.ones_like(norms))
    return input * factor


def sum_to_size(input, *size):
    shape = list(size[0]) if len(size) == 1 and isinstance(size[0], (list, tuple)) else list(size)
    lead = input.dim() - len(shape)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(shape) if s == 1 and input.size(lead + i) != 1]
    out = input.sum(dims, keepdim=True) if dims else input
    return out.reshape(shape)


def histc(input, bins=100, min=0, max=0):
    low, high = float(min), float(max)
    if low == high:
        low, high = input.min().item(), input.max().item()
    if low == high:
        low, high = low - 1, high + 1
    x = input.reshape(-1)
    inside = (x >= low) & (x <= high)
    place = ((x - low) * bins / (high - low)).floor().clamp(0, bins - 1).to(torch.int64)
    counts = (place.unsqueeze(-1) == torch.arange(bins)) & inside.unsqueeze(-1)
    return counts.sum(0).to(input.dtype)


def i0(input):
    """The modified Bessel function of the first kind of order 0, in float64: its power
    series up to |x| = 30, past which its asymptotic series."""
    x = _wide(input).abs()
    half_sq = (x / 2) ** 2
    term, series = torch.ones_like(x), torch.ones_like(x)
    for k in range(1, 80):
        term = term * half_sq / (k * k)
        series = series + term
    safe = torch.where(x > 30, x, torch.full_like(x, 30.0))
    inverse = 1 / (8 * safe)
    asymptote = torch.exp(safe) / torch.sqrt(2 * math.pi * safe) * (1 + inverse + 4.5 * inverse ** 2 + 37.5 * inverse ** 3 + 459.375 * inverse ** 4)
    return torch.where(x > 30, asymptote, series).to(_result_dtype(input))


def mvlgamma(input, p):
    """The log of the multivariate gamma function of dimension p."""
    if not torch.compiler.is_compiling() and not (input > (p - 1) / 2).all():
        raise RuntimeError(f"All elements must be greater than (p-1)/2")
    x = input.unsqueeze(-1) - torch.arange(p, dtype=input.dtype) / 2
    return torch.lgamma(x).sum(-1) + p * (p - 1) / 4 * math.log(math.pi)


_BERNOULLI = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6]  # B2, B4, ..., B14


def polygamma(n, input):
    """The n-th derivative of digamma, in float64: (-1)^(n+1) n! sum_k 1 / (x + k)^(n+1) for the
    first 40 terms, then the asymptotic series at x + 40 (exact to double rounding for x > -20)."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    if n == 0:
        return torch.digamma(input)
    x = _wide(input)
    if not torch.compiler.is_compiling() and (x <= -20).any():
        raise NotImplementedError("polygamma(n > 0) of x <= -20 is not supported by Fusescope yet")
    head = sum(1 / (x + k) ** (n + 1) for k in range(40))
    z = x + 40
    tail = math.factorial(n - 1) / z ** n + math.factorial(n) / (2 * z ** (n + 1))
    for k, b in enumerate(_BERNOULLI, start=1):
        tail = tail + b * math.factorial(2 * k + n - 1) / math.factorial(2 * k) / z ** (2 * k + n)
    sign = 1 if n % 2 else -1
    out = sign * (math.factorial(n) * head + tail)
    return torch.where(x <= -20, torch.full_like(out, float("nan")), out).to(_result_dtype(input))  # compiled: no raise


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """(layer_norm, its mean, its 1 / std), the statistics kept with 1s where normalised; as
    PyTorch's, only the first result has a gradient (the statistics are detached)."""
    dims = list(range(input.dim() - len(normalized_shape), input.dim()))
    mean = input.mean(dims, keepdim=True) if dims else input.clone()
    var = input.var(dims, unbiased=False, keepdim=True) if dims else torch.zeros_like(input)
    rstd = torch.rsqrt(var + eps)
    return (torch.nn.functional.layer_norm(input, normalized_shape, weight, bias, eps), mean.detach(), rstd.detach())


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """(batch_norm, the batch's mean and 1 / std when training, else empty ones)."""
    out = torch.nn.functional.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training:
        return (out, input.new_zeros((0,)), input.new_zeros((0,)))
    dims = [0] + list(range(2, input.dim()))
    mean = input.mean(dims)
    invstd = torch.rsqrt(input.var(dims, unbiased=False) + eps)
    return (out, mean.detach(), invstd.detach())


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    out = torch.nn.functional.group_norm(input, group, weight, bias, eps)
    grouped = input.reshape(N, group, (C // group) * HxW)
    mean = grouped.mean(-1)
    rstd = torch.rsqrt(grouped.var(-1, unbiased=False) + eps)
    return (out, mean, rstd)  # unlike layer norm's, PyTorch differentiates these statistics


def logdet(input):
    d = torch.linalg.det(input)
    return torch.where(d < 0, torch.full_like(d, float("nan")), torch.log(d))


def cholesky_solve(B, L, upper=False):
    """X with (L L^T) X = B (U^T U with upper)."""
    lower = L.transpose(-2, -1) if upper else L
    y = torch.linalg.solve_triangular(lower, B, upper=False)
    return torch.linalg.solve_triangular(lower.transpose(-2, -1), y, upper=True)


def cholesky_inverse(L, upper=False):
    return cholesky_solve(torch.eye(L.size(-1), dtype=L.dtype).expand(L.shape), L, upper)


_more_methods = {
    "logdet": logdet, "cholesky_solve": cholesky_solve, "cholesky_inverse": cholesky_inverse,
    "mvlgamma": mvlgamma, "polygamma": lambda self, n: polygamma(n, self),
    "i0": i0,
    "atan2": atan2, "arctan2": atan2, "fmod": fmod, "ldexp": ldexp, "frexp": frexp, "sinc": sinc, "logit": logit,
    "cross": cross, "dist": dist, "renorm": renorm, "sum_to_size": sum_to_size, "histc": histc,
}


def _feature_dropout(input, p, train, inplace):
    """ATen's feature dropout: whole (dim 0, dim 1) slices dropped, one draw each, the rest
    scaled by 1 / (1 - p); the input itself when not training."""
    if not train or p == 0.0 or input.numel() == 0:
        return input
    if p == 1.0:  # ATen's order: all dropped before the rank is checked
        dropped = input * torch.zeros_like(input)
    elif input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    else:
        keep = torch.rand(tuple(input.shape[:2]) + (1,) * (input.dim() - 2), device=input.device) >= p
        dropped = input * keep * (1.0 / (1.0 - p))
    return input.copy_(dropped) if inplace else dropped


def feature_dropout(input, p, train):
    return _feature_dropout(input, p, train, False)


def feature_dropout_(input, p, train):
    return _feature_dropout(input, p, train, True)
