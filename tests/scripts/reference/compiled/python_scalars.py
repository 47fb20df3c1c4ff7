# A Python float meets a float32 tensor as a float32, eagerly as compiled.
import torch


def grow(y):
    return y * 1.0001 + 0.0001


print(torch.tensor([1e-10, 2.0, 0.0]) * 1e39)
print(torch.tensor([0.1, 0.2, 0.3]) == 0.1, torch.tensor([1.0, 2.0]) + 1e-8 == torch.tensor([1.0, 2.0]))
y = torch.ones(4)
z = torch.ones(4)
compiled = torch.compile(grow)
for i in range(2000):
    y = grow(y)
    z = compiled(z)
print(y, z, torch.equal(y, z))
print(torch.arange(512.0)[224] * 0.37, torch.tensor([3.0], dtype=torch.float16) * 1.0001)
