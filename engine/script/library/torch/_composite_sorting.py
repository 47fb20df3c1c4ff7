# torch functions that order elements, composed of topk (a stable sort of each row, NaN
# largest, as PyTorch's CPU sort orders them) and of picks from its result; their gradients
# go back through topk's (gather's).
import torch
from torch.return_types import _make


def _values_indices(name, values, indices):
    return _make(name, ("values", "indices"), (values, indices))


def sort(input, dim=-1, descending=False, stable=False):
    if input.dim() == 0:
        return _values_indices("sort", input.clone(), torch.zeros((), dtype=torch.int64))
    values, indices = torch.topk(input, input.size(dim), dim, largest=descending, sorted=True)
    return _values_indices("sort", values, indices)


def argsort(input, dim=-1, descending=False, stable=False):
    return sort(input, dim, descending, stable)[1]


def msort(input):
    return sort(input, 0)[0]


def _pick(name, input, dim, keepdim, position):
    """Element `position` (an int, or a tensor of one per row) of each row sorted along dim."""
    if input.dim() == 0:
        return _values_indices(name, input.clone(), torch.zeros((), dtype=torch.int64))
    values, indices = sort(input, dim)
    if isinstance(position, int):
        values, indices = values.narrow(dim, position, 1), indices.narrow(dim, position, 1)
    else:
        values, indices = values.gather(dim, position), indices.gather(dim, position)
    if not keepdim:
        values, indices = values.squeeze(dim), indices.squeeze(dim)
    return _values_indices(name, values, indices)


def kthvalue(input, k, dim=-1, keepdim=False):
    size = input.size(dim) if input.dim() else 1
    if k < 1 or k > size:
        raise IndexError(f"kthvalue(): selected number k out of range for dimension {dim % max(input.dim(), 1)}")
    return _pick("kthvalue", input, dim, keepdim, k - 1)


def median(input, dim=None, keepdim=False):
    """The lower of the two middle elements (NaN when there is one, as NaN sorts last)."""
    if dim is None:
        flat = input.reshape(-1)
        if flat.numel() == 0:
            return torch.full((), float("nan"), dtype=input.dtype)
        values = sort(flat)[0]
        nan_count = values.isnan().sum() if values.is_floating_point() else 0
        return torch.where(nan_count > 0, values[-1], values[(flat.numel() - 1) // 2])
    size = input.size(dim) if input.dim() else 1
    if input.dim() == 0 or not input.is_floating_point():
        return _pick("median", input, dim, keepdim, (size - 1) // 2)
    has_nan = input.isnan().any(dim, keepdim=True)
    middle = torch.where(has_nan, torch.full_like(has_nan, size - 1, dtype=torch.int64),
                         torch.full_like(has_nan, (size - 1) // 2, dtype=torch.int64))
    return _pick("median", input, dim, keepdim, middle)


def nanmedian(input, dim=None, keepdim=False):
    """The lower middle of the elements that are not NaN (NaN where all are)."""
    if not input.is_floating_point():
        return median(input, dim, keepdim)
    if dim is None:
        kept = input.reshape(-1)
        count = (~kept.isnan()).sum()
        values = sort(kept)[0]
        return values[torch.clamp((count - 1) // 2, min=0)] if values.numel() else torch.full((), float("nan"), dtype=input.dtype)
    if input.dim() == 0:
        return _values_indices("nanmedian", input.clone(), torch.zeros((), dtype=torch.int64))
    count = (~input.isnan()).sum(dim, keepdim=True)
    return _pick("nanmedian", input, dim, keepdim, torch.clamp((count - 1) // 2, min=0))


def _running(name, input, dim, reaches):
    """Running extreme along dim and where it was: a later element equal to it, or NaN, takes
    over (and NaN stays), as PyTorch's kernel compares."""
    if input.dim() == 0:
        return _values_indices(name, input.clone(), torch.zeros((), dtype=torch.int64))
    if input.size(dim) == 0:
        return _values_indices(name, input.clone(), torch.zeros_like(input, dtype=torch.int64))
    values = [input.select(dim, 0)]
    indices = [torch.zeros_like(values[0], dtype=torch.int64)]
    for i in range(1, input.size(dim)):
        step, best = input.select(dim, i), values[-1]
        take = reaches(step, best)
        if step.is_floating_point():
            take = step.isnan() | (~best.isnan() & take)
        values.append(torch.where(take, step, best))
        indices.append(torch.where(take, torch.full_like(indices[-1], i), indices[-1]))
    return _values_indices(name, torch.stack(values, dim), torch.stack(indices, dim))


def cummax(input, dim):
    return _running("cummax", input, dim, lambda step, best: step >= best)


def cummin(input, dim):
    return _running("cummin", input, dim, lambda step, best: step <= best)


def aminmax(input, *, dim=None, keepdim=False):
    if dim is None:
        return _make("aminmax", ("min", "max"), (input.amin(), input.amax()))
    return _make("aminmax", ("min", "max"), (input.amin(dim, keepdim), input.amax(dim, keepdim)))


_sorting_methods = {
    "sort": sort, "argsort": argsort, "msort": msort, "kthvalue": kthvalue, "median": median, "nanmedian": nanmedian,
    "cummax": cummax, "cummin": cummin, "aminmax": aminmax,
}
