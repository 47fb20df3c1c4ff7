# Complex tensors: creation, printing as PyTorch prints them, the views between complex and
# real values, pointwise arithmetic with promotion, products, reductions, and the errors.
import torch

re = torch.tensor([[1.5, -2.0, 0.0], [3.25, 1e-3, -0.5]])
im = torch.tensor([[0.5, 2.0, -1.0], [0.0, -4.0, 100.0]])
z = torch.complex(re, im)
print(z)
print(z.dtype, z.shape, z.is_complex(), re.is_complex(), torch.is_complex(z), z.dtype.is_complex, z.dtype.is_floating_point)
print(z.real)
print(z.imag)
print(z[1, 2], z[0])
print(torch.view_as_real(z))
print(torch.view_as_real(z).stride(), torch.view_as_real(z[:, 1:]).storage_offset())
pairs = torch.arange(12, dtype=torch.float64).reshape(3, 2, 2)
c = torch.view_as_complex(pairs)
print(c, c.dtype)
pairs[0, 0, 1] = -7.0  # a view: the complex tensor sees it
print(c[0])

print(torch.zeros(2, dtype=torch.complex64))
print(torch.ones(2, 2, dtype=torch.cdouble))
print(torch.full((3,), 2.5, dtype=torch.complex64))
print(torch.zeros_like(z))
print(torch.tensor([1.0, 2.0], dtype=torch.complex128))
print(torch.tensor([], dtype=torch.complex64))
print(torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 3.141592653589793 / 2])))
w = torch.complex(torch.tensor([2.0, -1.0, 0.5]), torch.tensor([1.0, 1.0, -3.0]))
print(w * w, w + w, w - 2 * w)
print(w / torch.complex(torch.tensor([1.0, 0.0, 2.0]), torch.tensor([1.0, 2.0, 0.0])))
print(w * 2.0, w + 1, 3.0 - w, w / 2)
print((w * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).dtype)
print((w + torch.tensor(1.0, dtype=torch.float64)).dtype, (w.to(torch.complex128) * 1.0).dtype)
print(-w, w.conj(), torch.conj_physical(w), w.conj().imag)
print(w.abs(), torch.abs(torch.complex(torch.tensor([3e30]), torch.tensor([4e30]))), w.angle())
print(w == w.conj(), w != w.conj())
print(w.sum(), z.sum(dim=0), z.mean(dim=1), torch.cumsum(w, 0))
print(torch.cat([w, w.conj()]), torch.stack([w, w]).shape, w.flip(0))
m = torch.complex(torch.arange(6.0).reshape(2, 3), torch.ones(2, 3))
print(m @ m.t(), torch.mm(m, m.T.contiguous()))
print(torch.matmul(m, torch.ones(3, 2, dtype=torch.complex64)))
try:
    m @ torch.ones(3, 2)
except RuntimeError as e:
    print(e)
print(m.reshape(3, 2), m.transpose(0, 1).contiguous(), m.unsqueeze(0).shape, m.view(6)[4])
acc = torch.zeros(3, dtype=torch.complex64)
acc += w
acc.mul_(w)
print(acc)
print(w.to(torch.complex128), w.real.to(torch.complex64), z.clone())
print(torch.view_as_real(w * torch.polar(torch.ones(3), torch.tensor([0.1, 0.2, 0.3]))).flatten())
big = torch.complex(torch.linspace(-1, 1, 2000), torch.linspace(0, 1e5, 2000))
print(big)
print(torch.complex(torch.tensor(1.0), torch.tensor(-0.0)), torch.complex(torch.tensor(2.0), torch.tensor(1e-8)))

for bad in [lambda: torch.view_as_real(re), lambda: torch.view_as_complex(torch.ones(3, 3)),
            lambda: torch.view_as_complex(torch.ones(4, 2)[::2, :1].expand(2, 2)), lambda: torch.view_as_complex(torch.ones(2, 2, dtype=torch.int64)),
            lambda: re.imag, lambda: torch.complex(re, re.double()), lambda: torch.complex(re.long(), re.long())]:
    try:
        bad()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__ + ":", str(e).split("\n")[0])
