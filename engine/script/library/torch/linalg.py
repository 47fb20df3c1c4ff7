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


def _square(A, name):
    if A.dim() < 2 or A.size(-1) != A.size(-2):
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are {A.size(-2)} by {A.size(-1)} matrices")


def _gauss_jordan(A, B, name):
    """A^-1 B by Gauss-Jordan elimination with partial pivoting, batched; a singular A is
    PyTorch's error (checked eagerly; compiled, its result holds inf or nan as LAPACK's)."""
    n = A.size(-1)
    M = torch.cat([A, B], -1)
    places = torch.arange(n)
    for k in range(n):
        pivot = M[..., k:, k].abs().argmax(-1) + k
        p = pivot.unsqueeze(-1)
        order = torch.where(places == k, p, torch.where(places == p, torch.full_like(p, k), places))
        M = M.gather(-2, order.unsqueeze(-1).expand(M.shape))
        head = M[..., k:k + 1, k:k + 1]
        if not torch.compiler.is_compiling() and (head == 0).any():
            raise RuntimeError(f"linalg.{name}: The diagonal element {k + 1} is zero, the inversion could not be completed "
                               "because the input matrix is singular.")
        row = M[..., k:k + 1, :] / head
        M = torch.where((places == k).unsqueeze(-1), row, M - M[..., :, k:k + 1] * row)
    return M[..., :, n:]


def inv(A):
    _square(A, "inv")
    return _gauss_jordan(A, torch.eye(A.size(-1), dtype=A.dtype).expand(A.shape), "inv")


def inv_ex(A, *, check_errors=False):
    from torch.return_types import _make
    return _make("inv_ex", ("inverse", "info"), (inv(A), torch.zeros(A.shape[:-2], dtype=torch.int32)))


def solve(A, B, *, left=True):
    _square(A, "solve")
    if not left:  # X A = B is A^T X^T = B^T
        return solve(A.transpose(-2, -1), B.transpose(-2, -1)).transpose(-2, -1)
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and B.shape == A.shape[:-1])
    rhs = B.unsqueeze(-1) if vector else B
    batch = torch.broadcast_shapes(A.shape[:-2], rhs.shape[:-2])
    out = _gauss_jordan(A.expand(list(batch) + list(A.shape[-2:])), rhs.expand(list(batch) + list(rhs.shape[-2:])), "solve")
    return out.squeeze(-1) if vector else out


def solve_ex(A, B, *, left=True, check_errors=False):
    from torch.return_types import _make
    return _make("solve_ex", ("result", "info"), (solve(A, B, left=left), torch.zeros(A.shape[:-2], dtype=torch.int32)))


def cholesky(A, *, upper=False):
    """L with A = L L^T, column by column (Cholesky-Banachiewicz); not positive-definite is
    PyTorch's error."""
    _square(A, "cholesky")
    n = A.size(-1)
    rows = torch.arange(n)
    columns = []
    for j in range(n):
        if columns:
            L = torch.stack(columns, -1)  # [..., n, j]
            dots = (L * L[..., j:j + 1, :]).sum(-1)
        else:
            dots = torch.zeros_like(A[..., :, 0])
        square = A[..., j, j] - dots[..., j]
        if not torch.compiler.is_compiling() and (square <= 0).any():
            raise RuntimeError(f"linalg.cholesky: The factorization could not be completed because the input is not "
                               f"positive-definite (the leading minor of order {j + 1} is not positive-definite).")
        d = torch.sqrt(square)
        column = (A[..., :, j] - dots) / d.unsqueeze(-1)
        column = torch.where(rows < j, torch.zeros_like(column), torch.where(rows == j, d.unsqueeze(-1).expand(column.shape), column))
        columns.append(column)
    L = torch.stack(columns, -1) if columns else torch.zeros_like(A)
    return L.transpose(-2, -1) if upper else L


def cholesky_ex(A, *, upper=False, check_errors=False):
    from torch.return_types import _make
    return _make("cholesky_ex", ("L", "info"), (cholesky(A, upper=upper), torch.zeros(A.shape[:-2], dtype=torch.int32)))


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    """Back- or forward-substitution, row by row."""
    if not left:
        return solve_triangular(A.transpose(-2, -1), B.transpose(-2, -1), upper=not upper, unitriangular=unitriangular).transpose(-2, -1)
    n = A.size(-1)
    batch = torch.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    A = A.expand(list(batch) + [n, n])
    B = B.expand(list(batch) + list(B.shape[-2:]))
    solved = [None] * n
    for i in (range(n - 1, -1, -1) if upper else range(n)):
        known = [j for j in range(n) if solved[j] is not None]
        rest = B[..., i, :]
        for j in known:
            rest = rest - A[..., i, j:j + 1] * solved[j]
        solved[i] = rest if unitriangular else rest / A[..., i, i:i + 1]
    return torch.stack(solved, -2) if n else B.clone()


def matrix_power(A, n):
    _square(A, "matrix_power")
    if n < 0:
        return matrix_power(inv(A), -n)
    out = torch.eye(A.size(-1), dtype=A.dtype).expand(A.shape).clone()
    base = A
    while n:
        if n & 1:
            out = out @ base
        n >>= 1
        if n:
            base = base @ base
    return out


def vander(x, *, N=None):
    if x.dim() == 0:
        x = x.reshape(1)
    n = x.size(-1) if N is None else N
    return x.unsqueeze(-1) ** torch.arange(n)


def tensorinv(A, ind=2):
    outer = list(A.shape[:ind])
    inner = list(A.shape[ind:])
    rows = 1
    for s in outer:
        rows *= s
    return inv(A.reshape(rows, -1)).reshape(inner + outer)


def tensorsolve(A, B, dims=None):
    if dims is not None:
        rest = [d for d in range(A.dim()) if d not in [d % A.dim() for d in dims]]
        A = A.permute(rest + [d % A.dim() for d in dims])
    rows = B.numel()
    return solve(A.reshape(rows, -1), B.reshape(rows)).reshape(A.shape[B.dim():])
