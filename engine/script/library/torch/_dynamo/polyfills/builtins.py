# Dynamo's polyfills of Python's builtins (torch/_dynamo/polyfills/builtins.py), written as
# PyTorch's: a call of sum in traced code that Dynamo does not fold runs this in its place, so
# its frames and guards are Dynamo's (script/polyfills.cpp).
import functools
import operator


def sum(iterable, /, start=0):
    return functools.reduce(operator.add, iterable, start)
