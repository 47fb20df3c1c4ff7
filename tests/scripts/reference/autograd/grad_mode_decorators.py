# torch.no_grad(), torch.enable_grad() and torch.inference_mode() as decorators (with and
# without parentheses), on functions, methods and generator functions, and the decorated
# function's name and docstring kept (PyTorch 2.15 printed the .out).
import torch


@torch.no_grad()
def scaled(x, factor=2.0):
    """Scales without recording."""
    return x * factor


@torch.no_grad
def shifted(x):
    return x + 1


@torch.enable_grad()
def tracked(x):
    return x * 3


@torch.inference_mode()
def inferred(x):
    return x - 1


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.tensor([1.0, 2.0, 3.0]))

    def forward(self, x):
        return (self.weight * x).sum()

    @torch.no_grad()
    def generate(self, x, steps):
        out = []
        for _ in range(steps):
            x = x * self.weight
            out.append(x.sum().item())
        return out, x.requires_grad, torch.is_grad_enabled()


@torch.no_grad()
def running_sums(x):
    total = x
    for _ in range(3):
        total = total + x
        yield total.requires_grad, torch.is_grad_enabled()


x = torch.tensor([0.5, 1.5, -2.0], requires_grad=True)
y = scaled(x)
print(y, y.requires_grad, torch.is_grad_enabled())
print(shifted(x).requires_grad, scaled.__name__, scaled.__doc__, shifted.__name__, scaled.__wrapped__.__name__)
with torch.no_grad():
    z = tracked(x)
print(z.requires_grad, z.grad_fn.name())
w = inferred(x)
print(w.requires_grad, torch.is_inference_mode_enabled())
model = Model()
print(model(x).requires_grad)
print(model.generate(torch.ones(3), 2))
print(list(running_sums(x)), torch.is_grad_enabled())
print(type(Model.generate).__name__, Model.generate.__qualname__)
