# torch.jit's helpers model files use to stay scriptable, which change nothing eagerly:
# is_scripting/is_tracing, ignore (also with drop=True and its FutureWarning), unused, Final.
import torch
from typing import Final

class M(torch.nn.Module):
    scale: Final[float] = 2.0
    def __init__(self):
        super().__init__()
    @torch.jit.ignore
    def helper(self, x):
        return x + 1
    @torch.jit.unused
    def other(self):
        return 0
    @torch.jit.ignore(drop=True)
    def dropped(self):
        return 5
    def forward(self, x):
        if torch.jit.is_scripting() or torch.jit.is_tracing():
            return x
        return self.helper(x) * self.scale + self.dropped()
print(M()(torch.ones(2)), torch.jit.Final)
