import torch
import torch.nn as nn


class ShapeMismatch(Exception):
    def __init__(self, layer, cause):
        super().__init__(f"{layer}: {cause}")
        self.layer = layer


class Projector(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 5)
        self.norm = nn.LayerNorm(5)

    def forward(self, x):
        try:
            h = self.proj(x)
        except RuntimeError as e:
            raise ShapeMismatch("proj", e) from e
        return self.norm(h)


model = Projector()
for shape in [(2, 3), (2, 4), (4,), (1, 2, 3)]:
    try:
        out = model(torch.ones(shape))
        print(shape, "->", tuple(out.shape))
    except ShapeMismatch as e:
        print(shape, "failed in", e.layer, "|", e, "|", type(e.__cause__).__name__)

checks = [
    lambda: torch.ones(2, 3) + torch.ones(4, 3),
    lambda: torch.ones(2, 3).view(4, 2),
    lambda: torch.ones(2, 3) @ torch.ones(2, 3),
    lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]),
    lambda: nn.LayerNorm(4)(torch.ones(2, 3)),
    lambda: torch.ones(2, 3).split([1, 1], dim=1),
]
for i, check in enumerate(checks):
    try:
        check()
        print(i, "ok")
    except (RuntimeError, ValueError) as e:
        print(i, type(e).__name__, e)
    finally:
        print(i, "checked")

# Compiled: the projector runs compiled for a good shape and raises the same error for a bad one.
compiled = torch.compile(model)
print(torch.allclose(compiled(torch.ones(2, 3)), model(torch.ones(2, 3))))
try:
    compiled(torch.ones(2, 4))
except ShapeMismatch as e:
    print("compiled failed in", e.layer)
