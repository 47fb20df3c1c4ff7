# Compiled functions calling into a module of the script's own that reads its globals.
import torch
import scaling
from scaling import scaled, Gate


@torch.compile
def f(x):
    return scaled(x) + 1


x = torch.arange(4.0)
print(f(x))
print(f(x))
scaling.SCALE = 3.0
print(f(x))

gate = Gate()
with torch.no_grad():
    gate.lin.weight.copy_(torch.arange(9.0).reshape(3, 3) / 10 - 0.3)
    gate.lin.bias.fill_(0.1)
compiled_gate = torch.compile(gate)
print(compiled_gate(torch.ones(2, 3)).detach())
scaling.SCALE = 0.5
print(compiled_gate(torch.ones(2, 3)).detach())
print(compiled_gate(torch.ones(2, 3)).detach())
