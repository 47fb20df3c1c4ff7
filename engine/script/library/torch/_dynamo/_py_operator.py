# The pure-Python operator module (CPython's Lib/operator.py without its C accelerator), which
# Dynamo's operator polyfills call: functions written in Python, guarded by their code.


def add(a, b):
    "Same as a + b."
    return a + b


def sub(a, b):
    "Same as a - b."
    return a - b


def mul(a, b):
    "Same as a * b."
    return a * b
