# torch functions that reshape, stack, split or pick from tensors, composed of views and
# copies Fusescope has (PyTorch's CompositeImplicitAutograd ops and the *_copy twins of its
# views): each differentiates, and compiles, as the ops it is made of.
import torch


def _each(shaped, tensors):
    """atleast_*'s calling forms: one tensor, several, or one list of them."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(shaped(t) for t in tensors[0])
    if len(tensors) != 1:
        return tuple(shaped(t) for t in tensors)
    return shaped(tensors[0])


def _at_least_1d(t):
    return t.reshape(1) if t.dim() == 0 else t


def _at_least_2d(t):
    t = _at_least_1d(t)
    return t.unsqueeze(0) if t.dim() == 1 else t


def _at_least_3d(t):
    if t.dim() == 0:
        return t.reshape(1, 1, 1)
    if t.dim() == 1:
        return t.reshape(1, -1, 1)
    return t.unsqueeze(-1) if t.dim() == 2 else t


def atleast_1d(*tensors):
    return _each(_at_least_1d, tensors)


def atleast_2d(*tensors):
    return _each(_at_least_2d, tensors)


def atleast_3d(*tensors):
    return _each(_at_least_3d, tensors)


def hstack(tensors):
    tensors = atleast_1d(tensors)
    return torch.cat(tensors, 0 if tensors[0].dim() == 1 else 1)


def vstack(tensors):
    return torch.cat(atleast_2d(tensors), 0)


def row_stack(tensors):
    return vstack(tensors)


def dstack(tensors):
    return torch.cat(atleast_3d(tensors), 2)


def column_stack(tensors):
    return torch.cat([t.reshape(-1, 1) if t.dim() <= 1 else t for t in tensors], 1)


def broadcast_shapes(*shapes):
    rank = max((1 if isinstance(s, int) else len(s)) for s in shapes) if shapes else 0
    out = [1] * rank
    for s in shapes:
        s = [s] if isinstance(s, int) else list(s)
        for i, size in enumerate(reversed(s)):
            at = rank - 1 - i
            if out[at] == 1:
                out[at] = size
            elif size != 1 and size != out[at]:
                raise RuntimeError(f"Shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                                   f"{out[at]} and {size} at non-singleton dimension {i}.")
    return torch.Size(out)


def broadcast_to(input, size):
    return input.expand(size)


def broadcast_tensors(*tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    shape = broadcast_shapes(*[t.shape for t in tensors])
    return tuple(t.expand(shape) for t in tensors)


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The view of the diagonal: the two dims replaced by a last one whose stride is both."""
    rank = input.dim()
    if rank < 2:
        raise RuntimeError(f"diagonal dimensions requires ndim larger than 1, got {rank}")
    d1, d2 = dim1 % rank, dim2 % rank
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    if offset >= 0:
        length = max(0, min(input.size(d1), input.size(d2) - offset))
        start = input.storage_offset() + (offset * input.stride(d2) if length else 0)
    else:
        length = max(0, min(input.size(d1) + offset, input.size(d2)))
        start = input.storage_offset() + (-offset * input.stride(d1) if length else 0)
    kept = [d for d in range(rank) if d not in (d1, d2)]
    sizes = [input.size(d) for d in kept] + [length]
    strides = [input.stride(d) for d in kept] + [input.stride(d1) + input.stride(d2)]
    return input.as_strided(sizes, strides, start)


def _diagonal_places(length, offset):
    """Rows and columns of a diagonal of `length` elements at `offset`."""
    return torch.arange(length) + max(0, -offset), torch.arange(length) + max(0, offset)


def diag(input, diagonal=0):
    if input.dim() == 1:
        n = input.size(0) + abs(diagonal)
        out = input.new_zeros((n, n))
        rows, cols = _diagonal_places(input.size(0), diagonal)
        out[rows, cols] = input
        return out
    if input.dim() == 2:
        return torch.diagonal(input, diagonal).clone()
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.dim()}D")


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Each last-dim vector of input as the diagonal of a matrix in dims dim1 and dim2."""
    rank = input.dim() + 1
    d1, d2 = dim1 % rank, dim2 % rank
    n = input.size(-1) + abs(offset)
    full = input.new_zeros(list(input.shape[:-1]) + [n, n])
    rows, cols = _diagonal_places(input.size(-1), offset)
    full[..., rows, cols] = input
    others = iter(range(rank - 2))
    return full.permute([rank - 2 if d == d1 else rank - 1 if d == d2 else next(others) for d in range(rank)])


def diagflat(input, offset=0):
    return diag(input.reshape(-1), offset)


def trace(input):
    if input.dim() != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim " + str(input.dim()))
    return torch.diagonal(input).sum()


def ravel(input):
    return input.reshape(-1)


def flipud(input):
    return input.flip(0)


def fliplr(input):
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return input.flip(1)


def rot90(input, k=1, dims=(0, 1)):
    d0, d1 = dims[0] % input.dim(), dims[1] % input.dim()
    k %= 4
    if k == 1:
        return input.flip(d1).transpose(d0, d1)
    if k == 2:
        return input.flip(d0).flip(d1)
    if k == 3:
        return input.flip(d0).transpose(d0, d1)
    return input.clone()


def take(input, index):
    return input.reshape(-1)[index]


def take_along_dim(input, indices, dim=None):
    """input's elements at indices along dim; the other dims broadcast."""
    if dim is None:
        return input.reshape(-1).gather(0, indices.reshape(-1))
    d = dim % max(input.dim(), 1)
    others = list(torch.broadcast_shapes([1 if k == d else s for k, s in enumerate(input.shape)],
                                         [1 if k == d else s for k, s in enumerate(indices.shape)]))
    shape_in, shape_ix = list(others), list(others)
    shape_in[d], shape_ix[d] = input.size(d), indices.size(d)
    return input.expand(shape_in).gather(d, indices.expand(shape_ix))


def _unfold(input, dimension, size, step):
    """Tensor.unfold: every window of `size` along dimension, `step` apart, as a new last dim
    (a view)."""
    if input.dim() == 0:
        if size > 1:
            raise RuntimeError(f"maximum size for tensor at dimension 0 is 1 but size is {size}")
        return input.reshape(1)
    d = dimension % input.dim()
    if size > input.size(d):
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {input.size(d)} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    sizes, strides = list(input.shape), list(input.stride())
    sizes[d] = (input.size(d) - size) // step + 1
    strides[d] = input.stride(d) * step
    return input.as_strided(sizes + [size], strides + [input.stride(d)], input.storage_offset())


def tile(input, dims):
    dims = list(dims)
    if len(dims) < input.dim():
        dims = [1] * (input.dim() - len(dims)) + dims
    return input.repeat(dims)


def split_with_sizes(input, split_sizes, dim=0):
    total = input.size(dim)
    if sum(split_sizes) != total:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {total} (input tensor's size at dimension "
                           f"{dim}), but got split_sizes={list(split_sizes)}")
    return tuple(torch.split(input, list(split_sizes), dim))


def tensor_split(input, indices_or_sections, dim=0):
    size = input.size(dim)
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        base, extra = divmod(size, sections)
        bounds, start = [], 0
        for i in range(sections):
            bounds.append((start, start + base + (1 if i < extra else 0)))
            start = bounds[-1][1]
    else:
        cuts = [int(i) for i in indices_or_sections]
        edges = [0] + cuts + [size]
        bounds = [(edges[i], edges[i + 1]) for i in range(len(edges) - 1)]
    out = []
    for start, end in bounds:
        start, end = min(max(start, 0), size), min(max(end, 0), size)
        out.append(input.narrow(dim, start, max(0, end - start)))
    return tuple(out)


def hsplit(input, indices_or_sections):
    return tensor_split(input, indices_or_sections, 1 if input.dim() > 1 else 0)


def vsplit(input, indices_or_sections):
    return tensor_split(input, indices_or_sections, 0)


def dsplit(input, indices_or_sections):
    return tensor_split(input, indices_or_sections, 2)


def unsafe_split(input, split_size, dim=0):
    return tuple(torch.split(input, split_size, dim))


def unsafe_chunk(input, chunks, dim=0):
    return tuple(torch.chunk(input, chunks, dim))


def select_scatter(input, src, dim, index):
    out = input.clone()
    out.select(dim, index).copy_(src)
    return out


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    out = input.clone()
    diagonal(out, offset, dim1, dim2).copy_(src)
    return out


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    out = input.clone()
    out.as_strided(size, stride, storage_offset if storage_offset is not None else 0).copy_(src)
    return out


def fill(input, value):
    return torch.full_like(input, value.item() if isinstance(value, torch.Tensor) else value)


# The copying twins of views: the view, as a new tensor.
def _copying(view):
    def copy(input, *args, **kwargs):
        out = view(input, *args, **kwargs)
        return tuple(t.clone() for t in out) if isinstance(out, (list, tuple)) else out.clone()
    return copy


alias_copy = _copying(lambda input: input)
expand_copy = _copying(lambda input, size, *, implicit=False: input.expand(size))
permute_copy = _copying(lambda input, dims: input.permute(dims))
t_copy = _copying(lambda input: input.t())
transpose_copy = _copying(lambda input, dim0, dim1: input.transpose(dim0, dim1))
unsqueeze_copy = _copying(lambda input, dim: input.unsqueeze(dim))
squeeze_copy = _copying(lambda input, dim=None: input.squeeze() if dim is None else input.squeeze(dim))
view_copy = _copying(lambda input, size: input.view(size))
unbind_copy = _copying(lambda input, dim=0: input.unbind(dim))
diagonal_copy = _copying(diagonal)
narrow_copy = _copying(lambda input, dim, start, length: input.narrow(dim, start, length))
split_with_sizes_copy = _copying(split_with_sizes)
as_strided_copy = _copying(lambda input, size, stride, storage_offset=None: input.as_strided(size, stride, storage_offset))
unfold_copy = _copying(_unfold)


def reshape_as(input, other):
    return input.reshape(other.shape)


_shape_methods = {
    "diagonal": diagonal, "diag": diag, "diag_embed": diag_embed, "diagflat": diagflat, "trace": trace, "ravel": ravel,
    "fliplr": fliplr, "flipud": flipud, "rot90": rot90, "take": take, "take_along_dim": take_along_dim, "tile": tile,
    "split_with_sizes": split_with_sizes, "tensor_split": tensor_split, "hsplit": hsplit, "vsplit": vsplit,
    "dsplit": dsplit, "unsafe_split": unsafe_split, "unsafe_chunk": unsafe_chunk, "select_scatter": select_scatter,
    "diagonal_scatter": diagonal_scatter, "as_strided_scatter": as_strided_scatter, "broadcast_to": broadcast_to,
    "reshape_as": reshape_as, "unfold": _unfold,
}
