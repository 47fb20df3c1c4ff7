# Dicts and lists a compiled function reads, guarded as Dynamo guards them: `if d:` builds the
# dict's values (a value changed recompiles), a condition spread over lines is guarded at its
# first line, a dict keyed by ints is walked by key, and a list the function appends to is
# guarded by its length and items (a longer list recompiles).
import torch

empty = {}
scales = {"k": 2}
handlers = {3: lambda t: t + 1}
seen = []


def f(x):
    if not (empty
            or scales):
        return x
    for key, handle in handlers.items():
        x = handle(x) * key
    seen.append(x.shape[0])
    return x * scales["k"]


cf = torch.compile(f, backend="eager")
print(cf(torch.ones(2)), seen)
print(cf(torch.ones(2)), seen)
scales["k"] = 5
print(cf(torch.ones(2)), seen)
