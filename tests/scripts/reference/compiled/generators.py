# A compiled function that iterates generators (a generator function's and a generator
# expression's, a yield from, next() with a default) is traced through: one graph, no break.
import torch


def scaled(xs, k):
    for x in xs:
        yield x * k


def chained(x):
    yield x.sin()
    yield from scaled([x.cos(), x + 1], 2)
    return "unused"


def f(x):
    total = sum(t for t in scaled([x, x + 1, x * 2], 3))
    parts = list(chained(x))
    g = (y * 2 for y in parts)
    first = next(g)
    rest = sum(g)
    return total + first + rest + next(g, x)


x = torch.arange(4.0)
compiled = torch.compile(f, backend="eager")
print(compiled(x))
print(compiled(x + 1))
explanation = torch._dynamo.explain(f)(x)
print("graphs:", explanation.graph_count, "breaks:", explanation.graph_break_count)
