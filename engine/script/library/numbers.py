# numbers for Fusescope scripts: CPython's numeric tower as abstract base classes (Number >
# Complex > Real > Rational > Integral) with int, float and bool registered as CPython
# registers them, so isinstance(x, numbers.Number) answers as it does there. The abstract
# arithmetic methods are left out: no script class derives its numbers from these.
from abc import ABCMeta

__all__ = ["Number", "Complex", "Real", "Rational", "Integral"]


class Number(metaclass=ABCMeta):
    __slots__ = ()
    __hash__ = None


class Complex(Number):
    __slots__ = ()


class Real(Complex):
    __slots__ = ()


class Rational(Real):
    __slots__ = ()


class Integral(Rational):
    __slots__ = ()


Real.register(float)
Integral.register(int)
