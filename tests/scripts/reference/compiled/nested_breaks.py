# Graph breaks in functions the compiled function calls. Dynamo traces the frame again and
# ends its graph at the call, which runs eagerly: the function called is then a frame of its
# own, compiled with its own graph break and resume function, and the compiled frame goes on
# in a resume function after the call. A break in a loop skips the frame ("graph break in
# loop"): it runs eagerly, each function it calls compiled on its own. (PyTorch 2.15 printed the .out.)
import torch


def noisy(x):
    y = x.sin()
    print("inside noisy", y.shape)
    return y.cos()


@torch.compile(backend="eager")
def calls_noisy(x):
    a = x + 1
    b = noisy(a)
    return b * 2


print(calls_noisy(torch.ones(3)))
print(calls_noisy(torch.ones(3)))


def inner(t):
    print("inner")
    return t.exp()


def middle(t):
    u = t - 1
    return inner(u) + 1


@torch.compile(backend="eager")
def outer(t):
    return middle(t * 3).sum()


print(outer(torch.zeros(2)))
print(outer(torch.ones(2)))


def clamp_positive(h):
    if h.mean() > 0:
        h = h * 0.5
    return h + 1


@torch.compile(backend="eager")
def loop_of_calls(x, n):
    for _ in range(n):
        x = clamp_positive(x)
    return x.relu()


print(loop_of_calls(torch.ones(2), 2))
print(loop_of_calls(-torch.ones(2), 3))


@torch.compile(backend="eager")
def print_in_loop(x, xs):
    for t in xs:
        x = x + t
        print("step", t.shape)
    return x * 2


print(print_in_loop(torch.ones(2), [torch.ones(2), torch.zeros(2)]))
print(print_in_loop(torch.ones(2), [torch.ones(2)]))
