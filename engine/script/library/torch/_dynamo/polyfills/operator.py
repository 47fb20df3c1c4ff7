# Dynamo's polyfills of the operator module's arithmetic (torch/_dynamo/polyfills/operator.py),
# written as PyTorch's: each calls the pure-Python operator module's function.
import torch._dynamo._py_operator as py_operator


def add(a, b, /):
    return py_operator.add(a, b)


def sub(a, b, /):
    return py_operator.sub(a, b)


def mul(a, b, /):
    return py_operator.mul(a, b)
