# torch.linalg: norms, products and the decompositions Fusescope composes from other ops
# (so they differentiate and compile as those do). Determinants, inverses and solves use
# LU with partial pivoting written here, as LAPACK's getrf does; SVD, eigen- and QR
# decompositions are not here yet (AttributeError says so).
import torch


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        x = x.to(dtype)
    if not x.is_floating_point():
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {_name(x.dtype)}")
    dims = list(range(x.dim())) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    a = x.abs()
    if x.dim() == 0:
        dims = []
    if ord == float("inf"):
        out = a.amax(dims, keepdim=True) if dims else a
    elif ord == float("-inf"):
        out = a.amin(dims, keepdim=True) if dims else a
    elif ord == 0:
        out = (a != 0).to(x.dtype).sum(dims, keepdim=True) if dims else (a != 0).to(x.dtype)
    elif ord == 1:
        out = a.sum(dims, keepdim=True) if dims else a
    elif ord == 2:
        out = (a * a).sum(dims, keepdim=True).sqrt() if dims else a
    else:
        out = (a ** ord).sum(dims, keepdim=True) ** (1.0 / ord) if dims else a
    if not keepdim and dims:
        for d in sorted((d % x.dim() for d in dims), reverse=True):
            out = out.squeeze(d)
    return out


def _name(dtype):
    return {torch.int64: "Long", torch.int32: "Int", torch.bool: "Bool"}.get(dtype, str(dtype))


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    if dtype is not None:
        A = A.to(dtype)
    if A.dim() < 2:
        raise RuntimeError(f"linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    d0, d1 = dim[0] % A.dim(), dim[1] % A.dim()
    if ord == "fro":
        out = (A.abs() ** 2).sum([d0, d1], keepdim=True).sqrt()
    elif ord in (1, -1):
        sums = A.abs().sum(d0, keepdim=True)
        out = sums.amax(d1, keepdim=True) if ord == 1 else sums.amin(d1, keepdim=True)
    elif ord in (float("inf"), float("-inf")):
        sums = A.abs().sum(d1, keepdim=True)
        out = sums.amax(d0, keepdim=True) if ord > 0 else sums.amin(d0, keepdim=True)
    else:
        raise NotImplementedError(f"linalg.matrix_norm(ord={ord!r}) needs singular values, which Fusescope does not compute yet")
    if not keepdim:
        out = out.squeeze(max(d0, d1)).squeeze(min(d0, d1))
    return out


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    if isinstance(dim, int):
        dim = (dim,)
    if ord is not None and (isinstance(ord, str) or (dim is not None and len(dim) == 2) or (dim is None and A.dim() == 2)):
        if dim is None:
            dim = (-2, -1)
        return matrix_norm(A, ord, dim, keepdim, dtype=dtype)
    if ord is None and dim is not None and len(dim) == 2:
        return matrix_norm(A, "fro", dim, keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def vecdot(x, y, *, dim=-1):
    return (x * y).sum(dim)


def cross(input, other, *, dim=-1):
    if input.size(dim) != 3 or other.size(dim) != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {input.size(dim)} and {other.size(dim)}")
    a, b = torch.broadcast_tensors(input, other)
    a0, a1, a2 = a.unbind(dim)
    b0, b1, b2 = b.unbind(dim)
    return torch.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], dim)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return torch.diagonal(A, offset, dim1, dim2)


def multi_dot(tensors):
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    out = tensors[0]
    for t in tensors[1:]:
        out = out @ t
    return out


def _lu(A):
    """Gaussian elimination with partial pivoting (LAPACK getrf's order) of a batch of square
    matrices: U, and the sign of the row permutation."""
    n = A.size(-1)
    U = A
    sign = torch.ones(A.shape[:-2], dtype=A.dtype)
    places = torch.arange(n)
    for k in range(n):
        pivot = U[..., k:, k].abs().argmax(-1) + k  # the largest magnitude at or below the diagonal
        p = pivot.unsqueeze(-1)
        order = torch.where(places == k, p, torch.where(places == p, torch.full_like(p, k), places))
        U = U.gather(-2, order.unsqueeze(-1).expand(U.shape))
        sign = torch.where(pivot == k, sign, -sign)
        factors = U[..., k + 1:, k] / U[..., k, k].unsqueeze(-1)
        U = torch.cat([U[..., :k + 1, :], U[..., k + 1:, :] - factors.unsqueeze(-1) * U[..., k:k + 1, :]], -2)
    return U, sign


def det(A):
    if A.dim() < 2 or A.size(-1) != A.size(-2):
        raise RuntimeError(f"linalg.det: A must be batches of square matrices, but they are {A.size(-2)} by {A.size(-1)} matrices")
    if A.size(-1) == 0:
        return torch.ones(A.shape[:-2], dtype=A.dtype)
    U, sign = _lu(A)
    return sign * torch.diagonal(U, 0, -2, -1).prod(-1)


def slogdet(A):
    from torch.return_types import _make
    d = det(A)
    return _make("slogdet", ("sign", "logabsdet"), (torch.sign(d), torch.log(d.abs())))
