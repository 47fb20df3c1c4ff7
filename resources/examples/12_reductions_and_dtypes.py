# Reductions with dim/keepdim, and type promotion as PyTorch does it.
import torch

x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
print(x.sum(), x.sum(dim=0), x.mean(1, keepdim=True))
print(x.amax(dim=1), x.amin(dim=0), x.argmax(dim=1), x.prod(dim=1))
print(x.var(dim=1))
print(torch.softmax(x, dim=1))
i = torch.tensor([1, 2, 3])
print(i + 1, i / 2, i * 2.5, (i > 1) & (i < 3))
print(torch.ones(2, dtype=torch.float16) + torch.ones(2), torch.tensor([True, False]) + 1)
print(f"{x.sum().item():.2f} {x.dtype} {i.dtype}")
