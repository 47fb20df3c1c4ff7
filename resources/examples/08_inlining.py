# Calls to other script functions are inlined into the caller's graph.
# Run with: fusescope-cli run 08_inlining.py --logs trace_source
import torch


def innermost(x):
    return x * 4


def middle(x):
    x = innermost(x)
    return x * 3


@torch.compile(backend="eager")
def outer(x):
    x = middle(x)
    return x * 2


print(outer(torch.ones(2, 2)))
