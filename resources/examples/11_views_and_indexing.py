# Views share storage: writing through a view changes the base tensor.
import torch

base = torch.arange(12.0).view(3, 4)
print(base[1])
print(base[:, 1:3])
print(base[..., None].shape)
print(base.t().is_contiguous(), base.t().contiguous().is_contiguous())
row = base[0]
row.mul_(10)
base[2, ::2] = -1.0
print(base)
print(torch.cat([base, base[:1]], dim=0).shape, torch.stack([base, base]).shape)
print(base.permute(1, 0).reshape(2, 6))
