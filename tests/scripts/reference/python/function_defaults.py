# Assigning a function's __defaults__ (CPython's rules: the last positional parameters get
# them), and namedtuple field defaults set through __new__.__defaults__, as public model code
# does (EfficientNet's GlobalParams.__new__.__defaults__ = (None,) * len(GlobalParams._fields)).
import collections


def scale(x, factor=2, shift=0, *, clip=None):
    return (x * factor + shift, clip)


print(scale.__defaults__, scale.__kwdefaults__, scale(1))
scale.__defaults__ = (10, 5)
print(scale.__defaults__, scale(1), scale(1, 3))
scale.__defaults__ = (1, 2, 3)
print(scale(), scale.__kwdefaults__)
scale.__defaults__ = None
print(scale.__defaults__)
try:
    scale(1)
except TypeError:
    print("TypeError: factor and shift are required again")
try:
    scale.__defaults__ = [1]
except TypeError as e:
    print("TypeError", e)

Point = collections.namedtuple("Point", ["x", "y", "z"])
Point.__new__.__defaults__ = (None,) * len(Point._fields)
print(Point(), Point(1), Point(1, 2, z=3))
Pair = collections.namedtuple("Pair", "a b", defaults=[7])
print(Pair(1), Pair.__new__.__defaults__, Pair._field_defaults)
try:
    Pair()
except TypeError as e:
    print("TypeError", e)
