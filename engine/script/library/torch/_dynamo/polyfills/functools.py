# Dynamo's polyfill of functools.reduce (torch/_dynamo/polyfills/functools.py), written as PyTorch's.
import functools
from functools import _initial_missing


def reduce(
    function,
    iterable,
    initial=_initial_missing,
    /,
):
    it = iter(iterable)

    if initial is _initial_missing:
        try:
            value = next(it)
        except StopIteration:
            raise TypeError(
                "reduce() of empty iterable with no initial value",
            ) from None
    else:
        value = initial

    for element in it:
        value = function(value, element)

    return value
