# Module backward hooks: register_full_backward_hook and register_full_backward_pre_hook see
# the gradients of a module's tensor inputs and outputs (None for an input that takes none),
# may replace them, run in registration order (prepend first), once per backward, and are
# removed by their handles; a module whose inputs need no gradient still hears of its outputs'.
import torch
import torch.nn as nn

torch.manual_seed(0)
seen = []


def show(tag):
    def hook(module, grad_input, grad_output):
        seen.append((tag, type(module).__name__, [None if g is None else [round(v, 4) for v in g.flatten().tolist()] for g in grad_input],
                     [[round(v, 4) for v in g.flatten().tolist()] for g in grad_output]))
    return hook


linear = nn.Linear(3, 2)
with torch.no_grad():
    linear.weight.copy_(torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]]))
    linear.bias.fill_(0.1)
handle = linear.register_full_backward_hook(show("first"))
linear.register_full_backward_hook(show("prepended"), prepend=True)
x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
linear(x).sum().backward()
for entry in seen:
    print(entry)
print(x.grad)

seen.clear()
handle.remove()


def double_input_grad(module, grad_input, grad_output):
    return tuple(g * 2 for g in grad_input)


def halve_output_grad(module, grad_output):
    return tuple(g * 0.5 for g in grad_output)


scaled = nn.Linear(3, 2)
with torch.no_grad():
    scaled.weight.fill_(1.0)
    scaled.bias.zero_()
scaled.register_full_backward_pre_hook(halve_output_grad)
scaled.register_full_backward_hook(double_input_grad)
x2 = torch.ones(2, 3, requires_grad=True)
(scaled(x2) * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(x2.grad, scaled.weight.grad)

# Inputs that need no gradient: the hook still runs, with None for them.
frozen_input = torch.ones(1, 3)
linear(frozen_input).sum().backward()
print(seen)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = nn.Linear(2, 2)

    def forward(self, a, scale, b):
        return self.inner(a) * scale + b, b.sum()


block = Block()
with torch.no_grad():
    block.inner.weight.copy_(torch.eye(2))
    block.inner.bias.zero_()
seen.clear()
block.register_full_backward_hook(show("block"))
a = torch.tensor([[1.0, -1.0]], requires_grad=True)
b = torch.tensor([[0.5, 0.5]], requires_grad=True)
out, total = block(a, 3.0, b)
(out.sum() + total * 2).backward()
print(seen, a.grad, b.grad)
try:
    bad = nn.Linear(2, 2)
    bad.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
    bad(torch.ones(1, 2, requires_grad=True)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

