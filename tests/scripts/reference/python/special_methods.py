class Vec:
    def __init__(self, *xs):
        self.xs = list(xs)
    def __len__(self):
        return len(self.xs)
    def __getitem__(self, i):
        return self.xs[i]
    def __setitem__(self, i, v):
        self.xs[i] = v
    def __delitem__(self, i):
        del self.xs[i]
    def __iter__(self):
        return iter(self.xs)
    def __contains__(self, v):
        return v in self.xs
    def __eq__(self, other):
        return isinstance(other, Vec) and self.xs == other.xs
    def __add__(self, other):
        return Vec(*[a + b for a, b in zip(self.xs, other.xs)])
    def __mul__(self, k):
        return Vec(*[a * k for a in self.xs])
    def __rmul__(self, k):
        return self * k
    def __neg__(self):
        return self * -1
    def __lt__(self, other):
        return sum(self.xs) < sum(other.xs)
    def __repr__(self):
        return "Vec(" + ", ".join(str(x) for x in self.xs) + ")"
    def __str__(self):
        return "<" + ", ".join(str(x) for x in self.xs) + ">"
    def __bool__(self):
        return any(self.xs)
    def __call__(self, scale=1):
        return sum(self.xs) * scale

v = Vec(1, 2, 3)
w = Vec(4, 5, 6)
print(v, repr(v), len(v), v[1], v[-1], 2 in v, 7 in v, list(v))
v[0] = 10
del v[2]
print(v, v + w, v * 2, 3 * v, -v, v == Vec(10, 2), v != Vec(10, 2), v < w, w > v)
print(bool(Vec(0, 0)), bool(v), v(), v(scale=2), sorted([w, v]))
print(f"{v} {v!r} {[v]}")
for i, x in enumerate(v):
    print(i, x)

class Counter:
    def __init__(self, n):
        self.n = n
        self.i = 0
    def __iter__(self):
        return self
    def __next__(self):
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.i

print(list(Counter(3)), sum(Counter(4)))
it = iter([1, 2])
print(next(it), next(it), next(it, "done"))

class Timer:
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        print("enter", self.name)
        return self
    def __exit__(self, exc_type, exc, tb):
        print("exit", self.name, exc_type.__name__ if exc_type else None, exc)
        return exc_type is KeyError

with Timer("a") as t, Timer("b"):
    print("body", t.name)
with Timer("c"):
    raise KeyError("swallowed")
try:
    with Timer("d"):
        raise ValueError("kept")
except ValueError as e:
    print("propagated", e)

def in_with():
    with Timer("e"):
        return "returned"
print(in_with())

class Lazy:
    def __init__(self):
        self.real = 1
    def __getattr__(self, name):
        if name.startswith("x"):
            return name * 2
        raise AttributeError(f"no {name}")

l = Lazy()
print(l.real, l.xy, hasattr(l, "zz"), getattr(l, "zz", 0))

class Strict:
    def __setattr__(self, name, value):
        if name == "bad":
            raise AttributeError("read-only")
        super().__setattr__(name, value.upper() if isinstance(value, str) else value)
    def __delattr__(self, name):
        print("deleting", name)
        object.__delattr__(self, name)

s = Strict()
s.a = "hi"
s.b = 2
print(vars(s))
try:
    s.bad = 1
except AttributeError as e:
    print(e)
del s.a
print(vars(s))

class Temperature:
    def __init__(self):
        self._c = 0.0
    @property
    def celsius(self):
        return self._c
    @celsius.setter
    def celsius(self, v):
        if v < -273.15:
            raise ValueError("too cold")
        self._c = v
    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32

t = Temperature()
t.celsius = 100
print(t.celsius, t.fahrenheit)
try:
    t.fahrenheit = 3
except AttributeError as e:
    print(e)
try:
    t.celsius = -300
except ValueError as e:
    print(e)

s1 = {3, 1, 2, 3}
s2 = set([2, 3, 4])
s1.add(5)
print(s1, len(s1), 2 in s1, s1 | s2, s1 & s2, s1 - s2, s1 == {1, 2, 3, 5}, set(), {x % 3 for x in range(10)})
print(sorted(s1 ^ s2), s1.issubset({1, 2, 3, 5, 8}))
