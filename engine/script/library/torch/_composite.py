# torch functions Fusescope composes from other ops (the rest of torch's functions are
# engine ops): einsum, baddbmm and dropout here; arithmetic in _composite_math, shapes and
# views in _composite_shape, sorting in _composite_sorting, indexing in _composite_indexing.
# Inside a compiled function they trace as the ops they are made of, as PyTorch's
# CompositeImplicitAutograd ops do (its einsum runs through bmm).
import torch
from torch._composite_math import *  # noqa: F403: its public functions are torch's
from torch._composite_math import _math_methods
from torch._composite_shape import *  # noqa: F403
from torch._composite_shape import _shape_methods
from torch._composite_sorting import *  # noqa: F403
from torch._composite_sorting import _sorting_methods
from torch._composite_indexing import *  # noqa: F403
from torch._composite_indexing import _indexing_methods
from torch._composite_more import *  # noqa: F403
from torch._composite_more import _more_methods


def _implicit_output(terms):
    """Without '->', the output keeps the letters that appear once, in alphabetical order."""
    letters = "".join(terms)
    return "".join(sorted(letter for letter in set(letters) if letters.count(letter) == 1))


def _expand_ellipsis(terms, arrow, output, operands):
    """Each '...' becomes letters of its own for the dims it stands for, right-aligned across
    operands as broadcasting aligns them; without '->' those dims lead the output."""
    counts = []
    for i, (term, operand) in enumerate(zip(terms, operands)):
        named = len(term) - 3 if "..." in term else len(term)
        if "..." in term and named > operand.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({named}) is more than the number "
                               f"of dimensions ({operand.dim()}) for operand {i}")
        counts.append(operand.dim() - named if "..." in term else 0)
    fresh = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in "".join(terms) + output]
    dims = "".join(fresh[:max(counts, default=0)])
    expanded = [term.replace("...", dims[len(dims) - n:]) for term, n in zip(terms, counts)]
    if arrow:
        return expanded, output.replace("...", dims)
    return expanded, dims + _implicit_output([term.replace("...", "") for term in terms])


def _sum_out(tensor, letters, keep):
    """Sums the dims whose letters are not in `keep`; the tensor and its remaining letters."""
    dims = [d for d, letter in enumerate(letters) if letter not in keep]
    if dims:
        tensor = tensor.sum(dims)
    return tensor, "".join(letter for letter in letters if letter in keep)


def _size_of(letter, a, a_letters, b, b_letters):
    sizes = [t.size(ls.index(letter)) for t, ls in ((a, a_letters), (b, b_letters)) if letter in ls]
    return max(sizes)


def _contract(a, a_letters, b, b_letters, keep):
    """a and b multiplied over their shared letters and summed over those not in `keep`,
    as one bmm: a as (batch, left, contracted), b as (batch, contracted, right)."""
    a, a_letters = _sum_out(a, a_letters, keep + b_letters)
    b, b_letters = _sum_out(b, b_letters, keep + a_letters)
    batch = [letter for letter in a_letters if letter in b_letters and letter in keep]
    contracted = [letter for letter in a_letters if letter in b_letters and letter not in keep]
    left = [letter for letter in a_letters if letter not in b_letters]
    right = [letter for letter in b_letters if letter not in a_letters]

    def arranged(tensor, letters, order):
        tensor = tensor.permute([letters.index(letter) for letter in order])
        sizes = [_size_of(letter, a, a_letters, b, b_letters) for letter in order]
        return tensor.expand(sizes)

    def count(group):
        n = 1
        for letter in group:
            n *= _size_of(letter, a, a_letters, b, b_letters)
        return n

    x = arranged(a, a_letters, batch + left + contracted).reshape(count(batch), count(left), count(contracted))
    y = arranged(b, b_letters, batch + contracted + right).reshape(count(batch), count(contracted), count(right))
    sizes = [_size_of(letter, a, a_letters, b, b_letters) for letter in batch + left + right]
    return torch.bmm(x, y).reshape(sizes), "".join(batch + left + right)


def einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    terms, output = _expand_ellipsis(terms, arrow, output, operands)
    sizes = {}
    for i, (term, operand) in enumerate(zip(terms, operands)):
        if len(term) != operand.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(term)}) does not match the number "
                               f"of dimensions ({operand.dim()}) for operand {i} and no ellipsis was given")
        for letter, size in zip(term, operand.shape):
            known = sizes.get(letter, 1)
            if size != 1 and known != 1 and size != known:
                raise RuntimeError(f"einsum(): subscript {letter} has size {size} for operand {i} which does not broadcast "
                                   f"with previously seen size {known}")
            if size != 1:
                sizes[letter] = size
        if len(set(term)) != len(term):
            raise NotImplementedError("torch.einsum with a letter repeated in one operand (a diagonal) is not supported in "
                                      "Fusescope scripts yet")
    result, letters = operands[0], terms[0]
    for i in range(1, len(operands)):
        keep = output + "".join(terms[i + 1:])
        result, letters = _contract(result, letters, operands[i], terms[i], keep)
    result, letters = _sum_out(result, letters, output)
    return result.permute([letters.index(letter) for letter in output])


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * (batch1 @ batch2); with beta == 0 input is not read (its NaNs
    do not propagate), as PyTorch does."""
    product = torch.bmm(batch1, batch2)
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return product
    return (input if beta == 1 else input * beta) + product


def dropout(input, p, train):
    """F.dropout's: where a gradient will flow, the input times a mask (MulBackward0, as
    PyTorch's CPU dropout), else the engine op."""
    return torch.nn.functional.dropout(input, p, train)


def _mask_over_leading_dims(tensor, mask):
    """A bool mask over the tensor's leading dims (PyTorch checks its sizes so), shaped to
    broadcast over the rest."""
    for k in range(mask.dim()):
        if k >= tensor.dim() or mask.size(k) != tensor.size(k):
            raise IndexError(f"The shape of the mask {list(mask.shape)} at index {k} does not match the shape of the "
                             f"indexed tensor {list(tensor.shape)} at index {k}")
    return mask.reshape(list(mask.shape) + [1] * (tensor.dim() - mask.dim()))


def _select_by_mask(tensor, mask, op="aten.nonzero.default"):
    """tensor[mask]: the rows of the flattened masked dims where the mask is true. How many
    there are depends on the data: reading it breaks a compiled graph, as Dynamo's `op` does."""
    _mask_over_leading_dims(tensor, mask)
    rows = tensor.unsqueeze(0) if mask.dim() == 0 else tensor.flatten(0, mask.dim() - 1)
    flags = torch._dynamo._dynamic_shape_op(op, mask)
    keep = torch.tensor([i for i, m in enumerate(flags) if m], dtype=torch.int64)
    return torch.autograd._name_backward(rows.index_select(0, keep), "IndexBackward0")


def _index_put_with_tensors(tensor, index, value):
    """tensor[index] = value with tensors or lists in the index (PyTorch's index_put_): a bool
    mask over the leading dims with a number or a 0-d tensor is a masked_fill_; integer
    indices write the value's elements where they point, the last one written to a place
    winning (as PyTorch's CPU kernel), through a where() over the whole tensor: the gradient
    reaches the value at the places written and the tensor elsewhere."""
    if isinstance(index, torch.Tensor) and index.dtype == torch.bool:
        if isinstance(value, torch.Tensor) and value.dim() != 0:
            raise NotImplementedError("assigning a tensor of several values through a bool mask (index_put_) is not "
                                      "supported by Fusescope yet; a number or a 0-d tensor is")
        tensor.masked_fill_(_mask_over_leading_dims(tensor, index), value)
        return
    out, advanced = _apply_basic_parts(tensor, index)
    first, last, flat = _flat_index(out, advanced)
    sizes = list(out.shape)
    places = 1
    for size in sizes[first:last + 1]:
        places *= size
    lead, rest = sizes[:first], sizes[last + 1:]
    count = flat.numel()
    values = value.to(out.dtype) if isinstance(value, torch.Tensor) else torch.tensor(value, dtype=out.dtype, device=out.device)
    values = values.expand(lead + list(flat.shape) + rest).reshape(lead + [count] + rest)
    hits = flat.reshape(-1, 1) == torch.arange(places, device=out.device).reshape(1, -1)  # [count, places]
    written = hits.any(0)
    writer = torch.where(hits, torch.arange(count, device=out.device).reshape(-1, 1), -1).amax(0).clamp(min=0)
    picked = values.index_select(first, writer)
    mask = written.reshape([1] * first + [places] + [1] * len(rest))
    merged = torch.where(mask, picked, out.reshape(lead + [places] + rest))
    out.copy_(merged.reshape(sizes))
    torch.autograd._name_backward(tensor, "IndexPutBackward0")


def _index_with_tensors(tensor, index):
    """tensor[index] where the index holds tensors or lists (PyTorch's advanced indexing):
    slices, None and ... apply first; the tensor indices, next to each other, broadcast to one
    shape, which takes the place of the dims they index. The picked elements are an
    index_select of those dims flattened, so the gradient is index_select's (IndexBackward0,
    as PyTorch's)."""
    if isinstance(index, torch.Tensor) and index.dtype == torch.bool:
        return _select_by_mask(tensor, index)
    out, advanced = _apply_basic_parts(tensor, index)
    first, last, flat = _flat_index(out, advanced)
    picked = out.flatten(first, last).index_select(first, flat.reshape(-1))
    result = picked.reshape(list(out.shape[:first]) + list(flat.shape) + list(out.shape[last + 1:]))
    return torch.autograd._name_backward(result, "IndexBackward0")


def _apply_basic_parts(tensor, index):
    """The slices, None and ... of an index holding tensors or lists, applied (a view of the
    tensor, so writing to it writes the tensor), and its tensor indices as (dim, integer
    tensor) in that view, next to each other."""
    parts = list(index) if isinstance(index, tuple) else [index]
    for p in parts:
        if isinstance(p, (int, bool)):
            raise NotImplementedError("indexing with an integer beside a tensor or list index is not supported by Fusescope "
                                      "yet")
    consumed = len([p for p in parts if p is not None and type(p).__name__ != "ellipsis"])
    if consumed > tensor.dim():
        raise IndexError(f"too many indices for tensor of dimension {tensor.dim()}")
    out, dim, advanced = tensor, 0, []
    for p in parts:
        if p is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif type(p).__name__ == "ellipsis":
            dim += tensor.dim() - consumed
        elif isinstance(p, slice):
            out = out[(slice(None),) * dim + (p,)]
            dim += 1
        else:
            advanced.append((dim, _index_tensor(p, out.device)))
            dim += 1
    dims = [d for d, _ in advanced]
    if dims != list(range(dims[0], dims[0] + len(dims))):
        raise NotImplementedError("tensor indices apart from each other (their dims go first) are not supported by "
                                  "Fusescope yet")
    return out, advanced


def _flat_index(out, advanced):
    """The tensor indices broadcast to one shape and combined into one index of the dims they
    index flattened (negative ones wrapped, each checked against its dim as PyTorch checks
    it): (first dim, last dim, flat index)."""
    first, last = advanced[0][0], advanced[-1][0]
    flat = None
    for k, (d, idx) in enumerate(advanced):
        size = out.size(d)
        if not torch.compiler.is_compiling():  # PyTorch counts the dim among the tensor indices
            outside = ((idx >= size) | (idx < -size)).reshape(-1)
            if outside.any():
                bad = outside.tolist().index(True)
                raise IndexError(f"index {idx.reshape(-1)[bad].item()} is out of bounds for dimension {k} with size {size}")
        idx = torch.where(idx < 0, idx + size, idx)
        flat = idx if flat is None else flat * size + idx
    return first, last, flat


def _index_tensor(part, device):
    """An advanced index as an integer tensor on `device` (a list becomes one)."""
    idx = part if isinstance(part, torch.Tensor) else torch.tensor(part)
    if not isinstance(part, torch.Tensor) and idx.numel() == 0:
        idx = idx.long()
    if idx.dtype == torch.bool:
        raise NotImplementedError("a bool tensor (a mask) beside other indices is not supported by Fusescope yet; "
                                  "a mask alone is")
    if idx.dtype not in (torch.int64, torch.int32):
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return idx.to(device)


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """A vector norm over dim (every element when None; 'fro' is the 2-norm, the Frobenius
    norm of a matrix). Its gradient's node is LinalgVectorNormBackward0, as PyTorch's."""
    if dtype is not None:
        input = input.to(dtype)
    if p == "fro" or p is None:
        p = 2
    if isinstance(p, str):
        raise NotImplementedError(f"torch.norm with p={p!r} is not supported by Fusescope yet")
    dims = list(range(input.dim())) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    if p == float("inf"):
        result = input.abs().amax(dims, keepdim=keepdim)
    elif p == float("-inf"):
        result = input.abs().amin(dims, keepdim=keepdim)
    elif p == 0:
        result = (input != 0).to(input.dtype).sum(dims, keepdim=keepdim)
    elif p == 1:
        result = input.abs().sum(dims, keepdim=keepdim)
    elif p == 2:
        result = (input * input).sum(dims, keepdim=keepdim).sqrt()
    else:
        result = input.abs().pow(p).sum(dims, keepdim=keepdim).pow(1.0 / p)
    return torch.autograd._name_backward(result, "LinalgVectorNormBackward0")


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (each slice along dim) repeated: `repeats` times, or as often as its entry
    of a repeats tensor says (the count then depends on the data). Without repeats, the
    input holds the counts of 0, 1, 2, ..."""
    if repeats is None:
        return repeat_interleave(torch.arange(input.numel()), input)
    if dim is None:
        input, dim = input.reshape(-1), 0
    dim = dim % max(input.dim(), 1)
    if isinstance(repeats, torch.Tensor) and repeats.dim() == 0:
        repeats = repeats.item()
    if isinstance(repeats, int):
        sizes = list(input.shape)
        spread = input.unsqueeze(dim + 1).expand(sizes[:dim + 1] + [repeats] + sizes[dim + 1:])
        return spread.reshape(sizes[:dim] + [sizes[dim] * repeats] + sizes[dim + 1:])
    counts = repeats.tolist()
    if len(counts) != input.size(dim):
        raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = {len(counts)} "
                           f"and input.size({dim}) = {input.size(dim)}")
    picks = torch.tensor([i for i, count in enumerate(counts) for _ in range(count)], dtype=torch.int64)
    return input.index_select(dim, picks)


def roll(input, shifts, dims=None):
    """Elements shifted along dims, those past the end coming back at the start (the
    flattened tensor's when dims is None): the two pieces concatenated in turn."""
    if dims is None:
        return roll(input.flatten(), shifts, 0).view(input.shape)
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = [dims] if isinstance(dims, int) else list(dims)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    out = input
    for shift, dim in zip(shifts, dims):
        size = out.size(dim)
        if size == 0:
            continue
        cut = size - shift % size
        lead = (slice(None),) * (dim % out.dim())
        out = torch.cat([out[lead + (slice(cut, None),)], out[lead + (slice(0, cut),)]], dim)
    return torch.autograd._name_backward(out, "RollBackward0")


def _new_filled(fill):
    def new(input, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        """x.new_zeros(size): a tensor of x's dtype and device unless given."""
        if len(size) == 1 and isinstance(size[0], (tuple, list)):
            size = tuple(size[0])
        made = torch.full(size, fill, dtype=dtype if dtype is not None else input.dtype,
                          device=device if device is not None else input.device)
        return made.requires_grad_() if requires_grad else made
    return new


def _new_full(input, size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    return _new_filled(fill_value)(input, size, dtype=dtype, device=device, requires_grad=requires_grad)


def is_floating_point(input):
    return input.is_floating_point()


def is_complex(input):
    return input.is_complex()


def unflatten(input, dim, sizes):
    """Dim `dim` viewed as the dims `sizes` (one of them may be -1)."""
    dim = dim % input.dim() if input.dim() else 0
    if len(sizes) == 0:
        raise RuntimeError("unflatten: sizes must be non-empty")
    return input.view(tuple(input.shape[:dim]) + tuple(sizes) + tuple(input.shape[dim + 1:]))


def _view_as(input, other):
    return input.view(other.shape)


def _expand_as(input, other):
    return input.expand(other.shape)


_TENSOR_TYPES = {torch.float32: "torch.FloatTensor", torch.float64: "torch.DoubleTensor", torch.float16: "torch.HalfTensor",
                 torch.bfloat16: "torch.BFloat16Tensor", torch.int64: "torch.LongTensor", torch.int32: "torch.IntTensor",
                 torch.bool: "torch.BoolTensor"}


def _type(input, dtype=None, non_blocking=False):
    """x.type(): its type's name ('torch.FloatTensor'); x.type(torch.float64) or
    x.type('torch.DoubleTensor'): a copy of that dtype (itself when it has it)."""
    if dtype is None:
        return _TENSOR_TYPES[input.dtype]
    if isinstance(dtype, str):
        named = [d for d, name in _TENSOR_TYPES.items() if name == dtype]
        if not named:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = named[0]
    return input.to(dtype)


def _legacy_constructor(dtype, name):
    """torch.FloatTensor(2, 3) (sizes: zeros here, where PyTorch leaves memory as it was) and
    torch.FloatTensor([1, 2]) (data), the constructors of PyTorch's typed tensor classes."""

    def construct(*args, device=None):
        if len(args) == 1 and not isinstance(args[0], int) and not isinstance(args[0], torch.Size):
            return torch.tensor(args[0], dtype=dtype, device=device)
        return torch.zeros(*args, dtype=dtype, device=device)

    construct.__name__ = name
    return construct


FloatTensor = _legacy_constructor(torch.float32, "FloatTensor")
DoubleTensor = _legacy_constructor(torch.float64, "DoubleTensor")
HalfTensor = _legacy_constructor(torch.float16, "HalfTensor")
BFloat16Tensor = _legacy_constructor(torch.bfloat16, "BFloat16Tensor")
LongTensor = _legacy_constructor(torch.int64, "LongTensor")
IntTensor = _legacy_constructor(torch.int32, "IntTensor")
BoolTensor = _legacy_constructor(torch.bool, "BoolTensor")


def spmm(input, mat2):
    """A sparse-dense product in PyTorch; Fusescope's tensors are all dense, and so is this."""
    return torch.mm(input, mat2)


def _drawn_into(tensor, values):
    """An in-place random fill: the draws written over the tensor (an error for a leaf that
    requires grad, as PyTorch's)."""
    return tensor.copy_(values)


def _uniform_(input, a=0.0, b=1.0, *, generator=None):
    return _drawn_into(input, torch.rand(input.shape, dtype=input.dtype, device=input.device) * (b - a) + a)


def _normal_(input, mean=0.0, std=1.0, *, generator=None):
    return _drawn_into(input, torch.randn(input.shape, dtype=input.dtype, device=input.device) * std + mean)


_SCALAR_TYPE_NAMES = {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half", torch.bfloat16: "BFloat16",
                      torch.int64: "Long", torch.int32: "Int", torch.bool: "Bool"}


def dot(input, tensor):
    """The sum of the products of two 1-D tensors, with PyTorch's checks and words; its node
    is DotBackward0, as PyTorch's."""
    if input.dim() != 1 or tensor.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {tensor.dim()}D tensors")
    if input.dtype != tensor.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{_SCALAR_TYPE_NAMES.get(input.dtype, input.dtype)} and {_SCALAR_TYPE_NAMES.get(tensor.dtype, tensor.dtype)}")
    if input.numel() != tensor.numel():
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{input.numel()}] and src [{tensor.numel()}] to have "
                           f"the same number of elements, but got {input.numel()} and {tensor.numel()} elements respectively")
    return torch.autograd._name_backward((input * tensor).sum(), "DotBackward0")


def _scatter_into(self, dim, index, merge, name):
    """self's places along dim that index points to (as scatter_ takes them: index has
    self's number of dims and covers a block of it), merged by merge(places, hits) where
    places has dim last and hits [..., n, size] says which index entry points where. One
    where()/gather over the block: compiled graphs keep it."""
    if index.dim() != self.dim():
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if index.dtype != torch.int64:
        raise RuntimeError(f"{name}(): Expected dtype int64 for index")
    d = dim % self.dim() if self.dim() else 0
    size = self.size(d) if self.dim() else 1
    if not torch.compiler.is_compiling():
        outside = ((index < 0) | (index >= size)).reshape(-1)
        if outside.any():
            bad = index.reshape(-1)[outside.tolist().index(True)].item()
            raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {size}")
    whole = all(index.size(k) == self.size(k) for k in range(self.dim()) if k != d)
    block = self if whole else self[tuple(slice(None) if k == d else slice(0, index.size(k)) for k in range(self.dim()))]
    places = block.transpose(d, -1)
    hits = index.transpose(d, -1).unsqueeze(-1) == torch.arange(size, device=self.device)
    block.copy_(merge(places, hits).transpose(d, -1))
    return self


def _scatter_source(src, index, d):
    """The part of src that index's entries take their values from, with dim d last."""
    return src[tuple(slice(0, index.size(k)) for k in range(index.dim()))].transpose(d, -1)


def _scatter_(self, dim, index, src=None, value=None, *, reduce=None):
    """self.scatter_(dim, index, src or value): each index entry writes its src value (or
    value) to its place along dim; the last entry written to a place wins, as on PyTorch's
    CPU."""
    if src is None:
        src = value
    if self.dim() == 0:  # a scalar as one element: the writes reach it through the view
        _scatter_(self.reshape(1), 0, index.reshape(1), src.reshape(1) if isinstance(src, torch.Tensor) else src, reduce=reduce)
        return self
    if reduce == "add":
        source = src if isinstance(src, torch.Tensor) else torch.full(index.shape, src, dtype=self.dtype)
        return _scatter_add_(self, dim, index, source)
    if reduce == "multiply":
        return _scatter_multiply_(self, dim, index, src)
    if reduce is not None:
        raise RuntimeError(f"reduce argument must be either add or multiply. Got {reduce}")
    d = dim % self.dim() if self.dim() else 0
    if not isinstance(src, torch.Tensor):
        _scatter_into(self, dim, index, lambda places, hits: torch.where(hits.any(-2), torch.full_like(places, src), places),
                      "scatter")
        return torch.autograd._name_backward(self, "ScatterBackward1")
    if src.dtype != self.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")

    def last_write(places, hits):
        entries = hits.size(-2)
        writer = torch.where(hits, torch.arange(entries, device=self.device).unsqueeze(-1), -1).amax(-2)
        picked = _scatter_source(src, index, d).gather(-1, writer.clamp(min=0))
        return torch.where(writer >= 0, picked, places)

    _scatter_into(self, dim, index, last_write, "scatter")
    return torch.autograd._name_backward(self, "ScatterBackward0")


def _scatter_multiply_(self, dim, index, src):
    """scatter_(reduce='multiply'): each index entry multiplies its place by its src value."""
    d = dim % self.dim() if self.dim() else 0
    source = src if isinstance(src, torch.Tensor) else torch.full(index.shape, src, dtype=self.dtype)

    def multiply(places, hits):
        factors = torch.where(hits, _scatter_source(source, index, d).unsqueeze(-1), 1).prod(-2)
        return torch.where(hits.any(-2), places * factors, places)

    _scatter_into(self, dim, index, multiply, "scatter")
    return torch.autograd._name_backward(self, "ScatterReduceBackward0")


def _scatter_add_(self, dim, index, src):
    """self.scatter_add_(dim, index, src): each index entry adds its src value at its place."""
    if self.dim() == 0:
        _scatter_add_(self.reshape(1), 0, index.reshape(1), src.reshape(1))
        return self
    if src.dtype != self.dtype:
        raise RuntimeError("scatter_add(): Expected self.dtype to be equal to src.dtype")
    d = dim % self.dim() if self.dim() else 0

    def add(places, hits):
        added = torch.where(hits, _scatter_source(src, index, d).unsqueeze(-1), 0).sum(-2)
        return torch.where(hits.any(-2), places + added, places)  # an untouched -0.0 stays -0.0

    _scatter_into(self, dim, index, add, "scatter_add")
    return torch.autograd._name_backward(self, "ScatterAddBackward0")


def _index_add_(self, dim, index, source, *, alpha=1):
    """self.index_add_(dim, index, source): source's slice i along dim added to self's slice
    index[i]."""
    if index.dim() > 1:
        raise IndexError("index_add_(): Index is supposed to be a vector")
    if self.dim() == 0:
        _index_add_(self.reshape(1), 0, index.reshape(-1), source.reshape(1) if source.dim() == 0 else source, alpha=alpha)
        return self
    d = dim % self.dim() if self.dim() else 0
    if index.numel() != (source.size(d) if source.dim() else 1):
        raise IndexError("index_add_(): Number of indices should be equal to source.size(dim)")
    shape = [1] * source.dim()
    shape[d] = index.numel()
    spread = index.reshape(shape).expand(source.shape)
    _scatter_add_(self, dim, spread, source if alpha == 1 else source * alpha)
    return torch.autograd._name_backward(self, "IndexAddBackward0")


def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    return _scatter_(input.clone(), dim, index, src, value, reduce=reduce)


def scatter_add(input, dim, index, src):
    return _scatter_add_(input.clone(), dim, index, src)


def index_add(input, dim, index, source, *, alpha=1):
    return _index_add_(input.clone(), dim, index, source, alpha=alpha)


def movedim(input, source, destination):
    """input's dims at source moved to destination, the others keeping their order: a
    permute, so a view, as PyTorch's."""
    n = input.dim()
    if isinstance(source, int) != isinstance(destination, int):
        raise TypeError(f"movedim() received an invalid combination of arguments - got ({type(source).__name__}, "
                        f"{type(destination).__name__}), but expected one of:\n * (int source, int destination)\n"
                        f" * (tuple of ints source, tuple of ints destination)")
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) should contain the same "
                           f"number of dims as destination ({dst} dims)")

    def wrapped(dims, name):
        out = []
        for d in dims:
            if not -max(n, 1) <= d < max(n, 1):
                raise IndexError(f"Dimension out of range (expected to be in range of [{-max(n, 1)}, {max(n, 1) - 1}], "
                                 f"but got {d})")
            out.append(d % n if n else 0)
        if len(set(out)) != len(out):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({dims})")
        return out

    src, dst = wrapped(src, "source"), wrapped(dst, "destination")
    order = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter([d for d in range(n) if d not in src])
    return input.permute([o if o is not None else next(rest) for o in order])


moveaxis = movedim


# The tensor methods written here (x.norm(), x.view_as(y), ...): the engine binds them.
_tensor_methods = {"dot": dot, "movedim": movedim, "moveaxis": movedim, "scatter": scatter, "scatter_": _scatter_, "scatter_add": scatter_add,
                   "scatter_add_": _scatter_add_, "index_add": index_add, "index_add_": _index_add_, "new_zeros": _new_filled(0), "new_ones": _new_filled(1), "new_empty": _new_filled(0),
                   "new_full": _new_full, "norm": norm, "repeat_interleave": repeat_interleave, "roll": roll, "view_as": _view_as, "expand_as": _expand_as,
                   "uniform_": _uniform_, "normal_": _normal_,
                   "type": _type,
                   "unflatten": unflatten}
_tensor_methods.update(_math_methods)
_tensor_methods.update(_shape_methods)
_tensor_methods.update(_sorting_methods)
_tensor_methods.update(_indexing_methods)
_tensor_methods.update(_more_methods)
