# torch.masked: reductions and normalisations over the elements a mask keeps. As PyTorch's:
# the masked-out elements are replaced by the operation's identity (0 for sum, -inf for
# amax, ...), then the plain operation runs; mean, var and std count the kept elements.
import torch


def _dims(dim, input):
    if dim is None:
        return list(range(input.dim()))
    return [dim] if isinstance(dim, int) else list(dim)


def _filled(input, mask, identity):
    if mask is None:
        return input
    mask = mask.expand(input.shape) if mask.dim() <= input.dim() else mask
    return torch.where(mask, input, torch.full_like(input, identity))


def _lowest(input):
    return float("-inf") if input.is_floating_point() else torch.iinfo(input.dtype).min


def _highest(input):
    return float("inf") if input.is_floating_point() else torch.iinfo(input.dtype).max


def _reduce(x, dims, keepdim, reduce_one):
    """A reduction that takes one dim at a time (prod, argmax), over several dims."""
    if x.dim() == 0:
        return reduce_one(x, 0, keepdim)
    for d in sorted((d % x.dim() for d in dims), reverse=True):
        x = reduce_one(x, d, True)
    if not keepdim:
        for d in sorted((d % max(x.dim(), 1) for d in dims), reverse=True):
            x = x.squeeze(d)
    return x


def sum(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x = _filled(input if dtype is None else input.to(dtype), mask, 0)
    return x.sum(_dims(dim, input), keepdim=keepdim) if input.dim() else x.clone()


def prod(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x = _filled(input if dtype is None else input.to(dtype), mask, 1)
    return _reduce(x, _dims(dim, input), keepdim, lambda t, d, k: t.prod(d, keepdim=k))


def amax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x = _filled(input if dtype is None else input.to(dtype), mask, _lowest(input))
    return x.amax(_dims(dim, input), keepdim=keepdim) if input.dim() else x.clone()


def amin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x = _filled(input if dtype is None else input.to(dtype), mask, _highest(input))
    return x.amin(_dims(dim, input), keepdim=keepdim) if input.dim() else x.clone()


def argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x = _filled(input if dtype is None else input.to(dtype), mask, _lowest(input))
    return x.argmax(dim, keepdim=keepdim).to(x.dtype)  # PyTorch's: in the input's dtype


def argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x = _filled(input if dtype is None else input.to(dtype), mask, _highest(input))
    return x.argmin(dim, keepdim=keepdim).to(x.dtype)


def _count(input, dims, keepdim, mask):
    kept = torch.ones_like(input, dtype=torch.bool) if mask is None else mask.expand(input.shape)
    return kept.sum(dims, keepdim=keepdim) if input.dim() else kept.to(torch.int64)


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dims = _dims(dim, input)
    total = sum(input, dim, keepdim=keepdim, dtype=dtype, mask=mask)
    return total / _count(input, dims, keepdim, mask)


def var(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    if unbiased is not None:
        correction = 1 if unbiased else 0
    correction = 1 if correction is None else correction
    x = input if dtype is None else input.to(dtype)
    dims = _dims(dim, input)
    count = _count(x, dims, True, mask)
    centre = sum(x, dim, keepdim=True, mask=mask) / count
    squares = sum((x - centre) ** 2, dim, keepdim=keepdim, mask=mask)
    count = count if keepdim else _count(x, dims, False, mask)
    return squares / torch.clamp(count - correction, min=0)


def std(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    return var(input, dim, unbiased, correction=correction, keepdim=keepdim, dtype=dtype, mask=mask).sqrt()


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):
    x = input if dtype is None else input.to(dtype)
    x = _filled(x, mask, float("inf") if ord == float("-inf") else 0)
    return torch.linalg.vector_norm(x, ord, _dims(dim, input) if input.dim() else None, keepdim=keepdim)


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):
    x = input if dtype is None else input.to(dtype)
    if not x.is_floating_point():
        x = x.to(torch.get_default_dtype())
    return torch.nanmedian(_filled(x, mask, float("nan")), dim, keepdim=keepdim)[0] if x.dim() else x.clone()


def logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x = _filled(input if dtype is None else input.to(dtype), mask, _lowest(input))
    return torch.logsumexp(x, _dims(dim, input), keepdim=keepdim) if input.dim() else x.clone()


def logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None):
    a = _filled(input if dtype is None else input.to(dtype), input_mask, _lowest(input))
    b = _filled(other if dtype is None else other.to(dtype), other_mask, _lowest(other))
    return torch.logaddexp(a, b)


def cumsum(input, dim, *, dtype=None, mask=None):
    return _filled(input if dtype is None else input.to(dtype), mask, 0).cumsum(dim)


def cumprod(input, dim, *, dtype=None, mask=None):
    return _filled(input if dtype is None else input.to(dtype), mask, 1).cumprod(dim)


def softmax(input, dim, *, dtype=None, mask=None):
    x = input if dtype is None else input.to(dtype)
    return torch.softmax(_filled(x, mask, _lowest(x)), dim)


def log_softmax(input, dim, *, dtype=None, mask=None):
    x = input if dtype is None else input.to(dtype)
    return torch.log_softmax(_filled(x, mask, _lowest(x)), dim)


def softmin(input, dim, *, dtype=None, mask=None):
    x = input if dtype is None else input.to(dtype)
    return torch.softmax(-_filled(x, mask, _highest(x)), dim)


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):
    x = input if dtype is None else input.to(dtype)
    n = norm(x, ord, dim, keepdim=True, mask=mask)
    return _filled(x, mask, 0) / torch.clamp(n, min=eps)
