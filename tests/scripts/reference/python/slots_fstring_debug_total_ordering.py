# __slots__ (no attributes but the declared ones, no __dict__; a subclass without
# __slots__ has one again), class decorators, f-strings' `=` (the expression's text, then
# its repr, or its format with a spec), functools.total_ordering.
import functools


def registered(cls):
    cls.tag = "registered:" + cls.__name__
    return cls


@registered
class Point:
    __slots__ = ("x", "y")

    def __init__(self, x):
        self.x = x


p = Point(3)
print(Point.tag, p.x, Point.__slots__, hasattr(p, "__dict__"))
for action in ("set z", "read y", "dict"):
    try:
        if action == "set z":
            p.z = 1
        elif action == "read y":
            print(p.y)
        else:
            print(p.__dict__)
    except AttributeError as e:
        print(action, "->", e)
p.y = 4
print(p.x + p.y)


class Point3(Point):
    __slots__ = "z"


class Loose(Point):
    pass


q = Point3(1)
q.z = 5
try:
    q.w = 0
except AttributeError as e:
    print(e)
loose = Loose(2)
loose.w = 7
print(q.z, loose.w, "w" in loose.__dict__)


class WithProperty:
    __slots__ = ("_v",)

    @property
    def v(self):
        return self._v

    @v.setter
    def v(self, value):
        self._v = value * 2


w = WithProperty()
w.v = 21
print(w.v)

x, name, items = 3.14159, "fuse", [1, 2]
print(f"{x=}", f"{x = :.2f}", f"{name=!s}", f"{name=}", f"{x*2=}", f"{items = }", f"{len(items)=:>4}")
print(f"{x==3.14159=}", f"{x!=1}", f"{ name = }")


@functools.total_ordering
class Version:
    def __init__(self, major, minor):
        self.key = (major, minor)

    def __eq__(self, other):
        return isinstance(other, Version) and self.key == other.key

    def __lt__(self, other):
        if not isinstance(other, Version):
            return NotImplemented
        return self.key < other.key

    def __repr__(self):
        return "Version%r" % (self.key,)


a, b = Version(1, 2), Version(1, 10)
print(a < b, a <= b, a > b, a >= b, a >= Version(1, 2), sorted([b, a, Version(0, 9)]))
print(Version.__ge__.__name__)
try:
    a <= 3
except TypeError as e:
    print(e)


@functools.total_ordering
class Score:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == other.v

    def __gt__(self, other):
        return self.v > other.v


print(Score(1) < Score(2), Score(2) <= Score(2), Score(3) >= Score(4))
try:
    @functools.total_ordering
    class Nothing:
        pass
except ValueError as e:
    print(e)
