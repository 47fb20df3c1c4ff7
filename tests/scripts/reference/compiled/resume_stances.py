# Stances after a graph break: the code after it runs as its resume function, whose own cache the
# stance applies to (eager_on_recompile runs it eagerly, fail_on_recompile names it); a resume
# function whose frame holds nothing of torch's runs as plain Python, as the exception raised
# there shows (PyTorch 2.15 printed the .out).
import torch

@torch.compile(backend="eager")
def f(x, k):
    y = x * 2
    print("mid")
    return y * k

print(f(torch.ones(2), 2.0))
torch.compiler.set_stance("eager_on_recompile")
print(f(torch.ones(2), 3.0))
try:
    torch.compiler.set_stance("fail_on_recompile")
    print(f(torch.ones(2), 4.0))
except RuntimeError as e:
    first = str(e).splitlines()[0]
    print("RuntimeError:", first.split(". filename:")[0], "in", first.split("function name: ")[1])
torch.compiler.set_stance("default")

@torch.compile(backend="eager")
def g(x):
    y = x + 1
    print("mid")
    raise ValueError("after the break")

try:
    g(torch.ones(2))
except ValueError as e:
    print("ValueError:", e)
