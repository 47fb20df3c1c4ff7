# Sets print in the order of CPython's hash table: these check that order for the values
# whose hash Python fixes (ints, floats, bools, tuples of them, None), through every way a
# set is built or changed, and the hash() of those values.
from dataclasses import dataclass


def show(label, s):
    print(label, s, len(s))


# Displays: two elements are added in order; more than two constants become a frozenset
# constant first; a starred part is merged as set.update merges it.
show("pair", {8, 1})
show("constants", {1.0, 611, 3.25, -1044})
show("constants with None", {-2, None, -2, (-3, 7), 1, 8, -4})
x = 40
show("not constant", {16, 3, x})
show("starred", {*{5, 13, 21}, 2, *[64, 0]})
show("comprehension", {n * n % 37 for n in range(30)})

# Growing, removing, reusing removed slots.
s = set()
for n in range(0, 400, 7):
    s.add(n * 131 % 1009)
show("grown", s)
for n in range(0, 400, 21):
    s.discard(n * 131 % 1009)
show("after discards", s)
for n in range(-50, 0, 3):
    s.add(n)
show("dummies reused", s)
popped = [s.pop() for _ in range(5)]
print("popped", popped)
show("after pops", s)
s.clear()
s.add(12)
show("cleared", s)

# Operators and methods.
a = {1, 2, 3, 17, 33, 4096, -7, 2.5}
b = {3, 4, 33, 65, -7, (1, 2), 9}
show("a | b", a | b)
show("b | a", b | a)
show("a & b", a & b)
show("a - b", a - b)
show("a ^ b", a ^ b)
show("b ^ a", b ^ a)
show("a | a", a | a)
big = set(range(0, 200, 3))
show("big - b", big - b)
show("union", a.union([100, 36, 4], range(5), b))
show("intersection", a.intersection([33, 1, 17, 99], {1, 33, 2.5}))
show("difference", a.difference([1, 2], {3: "x"}))
show("symmetric_difference", a.symmetric_difference([17, 5, 6, 4096]))
c = set(a)
c |= {70, 6}
show("|=", c)
c &= {6, 17, 70, 1, 2.5}
show("&=", c)
c -= {6}
show("-=", c)
c ^= {70, 71, 72}
show("^=", c)
d = set(range(20))
d.difference_update(range(0, 20, 2))
show("difference_update", d)
d.intersection_update([1, 3, 5, 7, 40])
show("intersection_update", d)
d.symmetric_difference_update({1: None, 2: None, 3: None})
show("symmetric_difference_update", d)
d.update([8, 16, 24], {-1: 0})
show("update", d)
print("compare", {1, 2} < {1, 2, 3}, {1, 2} <= {1, 2}, {1, 2, 3} > {3}, {1} == {1.0}, {1, 2} != {2, 1})
print("tests", a.issubset(a | b), a.issuperset([1, 2]), a.isdisjoint([5, 6]), 2.5 in a, 2 in b)
print("sorted", sorted(a - {2.5}), list({(2, 1), (1, 2), (0, 0)}))

# Hashes Python fixes.
print("hash", hash(-1), hash(2**61), hash(-(2**61) + 5), hash(1.5), hash(-0.25), hash(1e300), hash(float("inf")))
print("hash", hash(True), hash(3.0) == hash(3), hash(()), hash((1, 2)), hash((1, (2.5, None)) ) == hash((1, (2.5, None))))

# Unhashable values, and classes whose equality makes them unhashable.
class Point:
    def __init__(self, x):
        self.x = x

    def __eq__(self, other):
        return isinstance(other, Point) and self.x == other.x


class Key:
    def __init__(self, x):
        self.x = x

    def __eq__(self, other):
        return isinstance(other, Key) and self.x == other.x

    def __hash__(self):
        return self.x


@dataclass
class Loose:
    a: int


@dataclass(frozen=True)
class Frozen:
    a: int
    b: float


for bad in ([1], {2: 3}, {4}, Point(1), Loose(2)):
    try:
        hash(bad)
    except TypeError as e:
        print("TypeError:", e)
try:
    {[1, 2], 3}
except TypeError as e:
    print("TypeError:", e)
keys = {Key(9), Key(1), Key(9), Key(17)}
print("keys", sorted(k.x for k in keys), Key(17) in keys, Key(2) in keys)
print("frozen", hash(Frozen(1, 2.5)) == hash((1, 2.5)), len({Frozen(1, 2.5), Frozen(1, 2.5), Frozen(2, 0.0)}))

# A hash a class returns is used as it is (a frozen dataclass hashes as the tuple of its
# fields, so a set of them iterates as Python's does).
@dataclass(frozen=True)
class P:
    x: int


print("frozen order", {P(i) for i in range(6)}, hash(P(1)) == hash((1,)))


class Big:
    def __hash__(self):
        return 2**62


print("big hash", hash(Big()))
try:
    @dataclass(unsafe_hash=True)
    class Q:
        a: int

        def __hash__(self):
            return 1
except TypeError as e:
    print("TypeError:", e)

# A constant display a loop iterates is the compiler's frozenset, at any size.
for x in {7, 15}:
    print("loop", x)
print("display", {7, 15}, [x for x in {8, 32, 15, 63, 57}], {8, 32, 15, 63, 57}, {(8,)[0], 32, 15, 63, 57})

# Methods with several arguments or any iterable, checked as CPython checks them.
a = set(range(16))
c = a - {7, 15}
print("difference of several", a.difference(set(), c), a.difference([1], range(3, 16)))
for f in (lambda: set().intersection([1, [2]]), lambda: {1}.issubset([1, [2]]), lambda: {1}.issuperset([2, [3]]),
          lambda: {1, 2}.isdisjoint([1, [3]]), lambda: {1}.issuperset(iter([2])), lambda: {1, 2}.intersection([2, [3]])):
    try:
        print("method", f())
    except TypeError as e:
        print("TypeError:", e)
from collections import OrderedDict
print("from OrderedDict", set(OrderedDict([(k, 0) for k in [16, 0, 1, 2, 3]])), set({16: 0, 0: 0, 1: 0, 2: 0, 3: 0}))


# Identity before equality; a set looked for inside a set is absent.
class Never:
    def __eq__(self, other):
        return False

    def __hash__(self):
        return 1


n = Never()
print("identity", n in {n}, len({n, n}), {1} in {1, 2}, {1, 2}.discard({1}))
try:
    {1, 2}.remove({1})
except KeyError as e:
    print("KeyError:", e)


# An __eq__ that empties the set it is compared in: the add starts over.
class Clearing:
    def __hash__(self):
        return 0

    def __eq__(self, other):
        S.clear()
        return False


S = set(range(20))
S.add(Clearing())
S.add(Clearing())
print("cleared by __eq__", len(S), sorted(type(v).__name__ for v in S))
