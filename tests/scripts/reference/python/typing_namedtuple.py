# typing.NamedTuple as a base class (fields from annotations, defaults, methods of the body)
# and in its functional form; stdout is CPython 3.11's.
from typing import NamedTuple, Optional


class Config(NamedTuple):
    """A model's sizes."""
    dim: int
    heads: int = 4
    dropout: Optional[float] = None

    def head_dim(self):
        return self.dim // self.heads


c = Config(64)
print(c, c.dim, c[1], c.head_dim(), len(c), tuple(c))
print(c == (64, 4, None), c == Config(64, 4), hash(c) == hash(Config(64)))
print(Config._fields, Config._field_defaults, c._asdict())
print(c._replace(heads=8), Config(dim=32, dropout=0.1))
dim, heads, dropout = c
print(dim, heads, dropout, [f for f in c])
try:
    c.dim = 3
except AttributeError as e:
    print("AttributeError:", e)
try:
    Config()
except TypeError as e:
    print("TypeError:", e)


class Vec(NamedTuple):
    x: float
    y: float

    def __repr__(self):
        return f"<{self.x}, {self.y}>"


print(Vec(1.0, 2.0), Vec(3, 4).x)
Pair = NamedTuple("Pair", [("left", int), ("right", str)])
print(Pair(1, "a"), Pair(left=2, right="b").right)
try:
    class Bad(NamedTuple):
        a: int = 1
        b: int
except TypeError as e:
    print("TypeError:", e)
