# Functions a compiled function reaches through closures: a decorator's wrapper calls the
# function it wraps, and reads a scale and a flag it closed over. Dynamo reads each as
# G['f'].__closure__[i].cell_contents, guards the function's code and the constants, and
# recompiles when one changes.
import functools

import torch


def scaled(scale, shift=True):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(x):
            y = fn(x) * scale
            return y + 1 if shift else y

        return wrapper

    return decorate


@scaled(3.0)
def double(x):
    return x * 2


@scaled(0.5, shift=False)
def negate(x):
    return -x


@torch.compile(backend="eager")
def f(x):
    return double(x) + negate(x)


x = torch.arange(4.0)
print(f(x))
print(f(x + 1))
negate = scaled(2.0, shift=False)(lambda x: -x)
print(f(x))
print(double.__closure__ is not None, len(double.__closure__), double.__closure__[0].cell_contents is not None)
