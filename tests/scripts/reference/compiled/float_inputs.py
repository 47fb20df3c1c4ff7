# Floats read by compiled code (an argument, a module's attribute): specialized on the first
# compile, and dynamic once a recompile sees another value, as PyTorch 2.15's Dynamo makes them:
# an f64[] input of the graph whose item() the ops read, guarded by its type and not NaN, so a
# third value runs the same graph. Arithmetic on it stays symbolic; an ordering comparison is
# answered and guarded (L['t'] > 1.0); dynamic=True makes a float dynamic at once.
import torch


@torch.compile(backend="eager")
def scaled(x, scale):
    return x * scale + scale


for s in [2.0, 3.0, 4.5, -1.25]:
    print(scaled(torch.arange(4), s))


class Mix(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha = 0.5

    def forward(self, a, b):
        return a + (b - a) * self.alpha - self.alpha / 2


mix = torch.compile(Mix(), backend="eager")
a, b = torch.zeros(3), torch.ones(3)
for alpha in [0.5, 0.25, 0.75]:
    mix.alpha = alpha
    print(mix(a, b))


@torch.compile(backend="eager")
def compared(x, t):
    if t > 1.0:
        return x * t
    return x - t


for t in [2.0, 3.0, 0.5, 0.25]:
    print(compared(torch.ones(2), t))


@torch.compile(dynamic=True, backend="eager")
def always(x, w):
    return torch.clamp(x, min=w)


print(always(torch.arange(4.0), 1.5))
print(always(torch.arange(4.0), 2.5))


# Across a graph break: the resume function gets the float and its half as inputs of its own,
# dynamic on its own recompile.
@torch.compile(backend="eager")
def halved(x, s):
    y = x * s
    t = s / 2
    print("half", t)
    return y * t


for s in [2.0, 3.0, 5.0, 7.0]:
    print(halved(torch.ones(2), s))


# Compared equal: guarded L['t'] == 0.0 (twice, as ShapeEnv replaces the symbol by the
# constant), else L['t'] != 0.0; an input returned as it is is guarded where it is returned.
@torch.compile(backend="eager")
def unless_zero(x, t):
    if t == 0.0:
        return x
    return x * t


for t in [2.0, 3.0, 0.0, 5.0]:
    print(unless_zero(torch.ones(2), t))
