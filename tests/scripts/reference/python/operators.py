# Binary operators through each type's slots: numbers, sequences, sets, dict views, and
# instances with reflected methods and NotImplemented.


class Meters:
    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        if isinstance(other, Meters):
            return Meters(self.v + other.v)
        if isinstance(other, (int, float)):
            return Meters(self.v + other)
        return NotImplemented

    def __radd__(self, other):
        if other == 0:  # sum() starts from 0
            return self
        return NotImplemented

    def __mul__(self, k):
        return Meters(self.v * k) if isinstance(k, (int, float)) else NotImplemented

    __rmul__ = __mul__

    def __repr__(self):
        return f"Meters({self.v})"


class Seconds:
    def __init__(self, v):
        self.v = v

    def __radd__(self, other):
        return f"radd of Seconds with {type(other).__name__}"

    def __rsub__(self, other):
        return NotImplemented


print(Meters(1) + Meters(2), Meters(1) + 2, 3 * Meters(2), Meters(2) * 1.5, sum([Meters(1), Meters(2)]))
print(Meters(1) + Seconds(2), 1 + Seconds(2), [1] + Seconds(3), "a" + Seconds(4))
for a, b in [(Meters(1), "x"), (1, Seconds(1)), ("a", 1), ([1], (2,)), ({1}, [1]), (None, 1), (1.5, "s")]:
    try:
        print(a - b if isinstance(b, Seconds) else a + b)
    except TypeError as e:
        print("TypeError:", e)
print(7 // 2, -7 // 2, 7 % -3, 2 ** 10, 2 ** -1, 7 / 2, 1 + 2.5, True + True, True & False, 5 & 3, 6 ^ 3, 1 << 10, -9 >> 1)
print(7.5 // 2, -7.5 % 2, 2.0 ** 0.5, 3 * "ab", "ab" * 2, [0] * 3, 2 * (1, 2), [1] + [2], (1,) + (2,), "x" * 0, [1] * -1)
print({1, 2} | {3}, {1, 2} & {2, 3}, {1, 2} - {2}, {1, 2} ^ {2, 3})
d = {"a": 1, "b": 2}
print(sorted(d.keys() & {"a", "z"}), sorted(d.keys() | ["c"]), sorted(d.keys() - {"a"}), sorted(d.items() & {("a", 1)}))
tries = [
    lambda: 1 @ 2,
    lambda: 1.5 & 1,
    lambda: [1] * 1.5,
    lambda: {1} + {2},
    lambda: d.keys() + [1],
    lambda: d.values() | {1},
    lambda: "a" - "b",
    lambda: Meters(1) - Meters(2),
]
for attempt in tries:
    try:
        print(attempt())
    except TypeError as e:
        print("TypeError:", e)


# Rich comparisons through each type's compare slot.
class Version:
    def __init__(self, v):
        self.v = v

    def __lt__(self, o):
        return self.v < o.v

    def __repr__(self):
        return f"Version({self.v})"


print(sorted([(1, Version(3)), (1, Version(2)), (0, Version(9))]))
print((1, 2) < (1, 3), [1, 2] <= [1, 2], [1] < [1, 0], (2,) > (1, 5), "ab" < "b", 1 < 1.5, 2 >= True)
print(float("nan") < 1, float("nan") == float("nan"), float("nan") != float("nan"), {1} < {1, 2}, {1, 2} > {1, 2})
for attempt in [lambda: 1 < "a", lambda: [1] > (1,), lambda: Version(1) > 3, lambda: {1: 2} < {1: 2}, lambda: None >= None]:
    try:
        print(attempt())
    except TypeError as e:
        print("TypeError:", e)
print(Version(1) == Version(1), Version(1) != 3, [Version(1)] == [Version(1)])
