# torch.compile of a lambda: compiled as a def is (its frame named <lambda>), defaults and
# keyword arguments guarded, a new default value recompiling.
import torch

f = torch.compile(lambda x: (x * 2).relu().sum())
x = torch.tensor([1.0, -2.0, 3.0])
print(f(x), f(x + 1))
g = torch.compile(lambda a, b=2: a.sin() * b + a)
print(g(x), g(x, b=3), g(x, 2))
