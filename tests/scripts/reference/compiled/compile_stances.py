# torch.compiler.set_stance as a call, a with block and a decorator: force_eager compiles
# nothing, eager_on_recompile runs cached code or eager code, fail_on_recompile raises where a
# compile would be needed (with the guard that failed), default compiles again.
import re

import torch


@torch.compile(backend="eager")
def f(x):
    return x + 1


print(f(torch.ones(2)))
with torch.compiler.set_stance("force_eager"):
    print(f(torch.ones(3)))
with torch.compiler.set_stance("eager_on_recompile"):
    print(f(torch.ones(4, 2)))
    print(f(torch.ones(2)))
torch.compiler.set_stance("fail_on_recompile")
print(f(torch.ones(2)))
try:
    f(torch.ones(5, 5, 5))
except RuntimeError as e:
    print(re.sub(r"filename: '[^']*'", "filename: (masked)", str(e)))
torch.compiler.set_stance("default")
print(f(torch.ones(5, 5, 5)).shape)


@torch.compiler.set_stance("force_eager")
def g(x):
    return f(x)


print(g(torch.ones(6)))


@torch._dynamo.set_stance("fail_on_recompile")
def h(x):
    return f(x)


print(h(torch.ones(2)))
try:
    h(torch.ones(7, 7, 7, 7))
except RuntimeError as e:
    print(str(e).splitlines()[-1])
print(f(torch.ones(7, 7, 7, 7)).shape)
