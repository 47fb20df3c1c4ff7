# torch functions that read or write tensors at computed places, composed of indexing and
# index_add (which differentiate and compile as they do). nonzero and masked_select return as
# many elements as the data says: inside a compiled function they break the graph, as
# Dynamo's do.
import torch


def nonzero(input, *, as_tuple=False):
    """The coordinates of the non-zero elements, in row-major order."""
    flags = torch._dynamo._dynamic_shape_op("aten.nonzero.default", input)
    sizes = list(input.shape)
    coords = []
    for flat, flag in enumerate(flags):
        if flag:
            point = []
            for size in reversed(sizes):
                point.append(flat % size)
                flat //= size
            coords.append(list(reversed(point)))
    out = torch.tensor(coords, dtype=torch.int64).reshape(len(coords), len(sizes))
    if as_tuple:
        return tuple(out[:, d] for d in range(len(sizes))) if sizes else (torch.zeros(len(coords), dtype=torch.int64),)
    return out


def argwhere(input):
    return nonzero(input)


def masked_select(input, mask):
    from torch._composite import _select_by_mask  # which imports this module

    shape = torch.broadcast_shapes(input.shape, mask.shape)
    return _select_by_mask(input.expand(shape), mask.expand(shape), "aten.masked_select.default")


def _along(dim, rank, index):
    """The index tuple that puts `index` at dim."""
    return tuple([slice(None)] * (dim % rank) + [index]) if rank else (index,)


def index_put(input, indices, values, accumulate=False):
    out = input.clone()
    if accumulate:
        picked = torch.arange(out.numel()).reshape(out.shape)[tuple(indices)]
        spread = values.to(out.dtype).expand(picked.shape).reshape(-1)
        return out.reshape(-1).index_add(0, picked.reshape(-1), spread).reshape(out.shape)
    out[tuple(indices)] = values
    return out


def index_copy(input, dim, index, source):
    out = input.clone()
    if input.dim() == 0:
        return source.reshape(()).clone() if index.numel() else out
    out[_along(dim, input.dim(), index)] = source
    return out


def index_fill(input, dim, index, value):
    out = input.clone()
    if input.dim() == 0:
        return torch.full_like(input, value) if index.numel() else out
    out[_along(dim, input.dim(), index)] = value
    return out


def put(input, index, source, accumulate=False):
    flat = input.reshape(-1)
    if index.numel() == 0:
        return input.clone()
    positions = torch.where(index < 0, index + flat.numel(), index).reshape(-1)
    if accumulate:
        return (flat.clone().index_add(0, positions, source.reshape(-1))).reshape(input.shape)
    out = flat.clone()
    out[positions] = source.reshape(-1)
    return out.reshape(input.shape)


_indexing_methods = {
    "nonzero": nonzero, "argwhere": argwhere, "masked_select": masked_select, "index_put": index_put,
    "index_copy": index_copy, "index_fill": index_fill, "put": put,
}
