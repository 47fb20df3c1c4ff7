# Generators: lazy evaluation, yield from, send/throw/close, StopIteration, contextmanager.
import itertools
from contextlib import contextmanager, nullcontext


def count_up(start):
    n = start
    while True:
        yield n
        n += 1


# A generator expression over an infinite generator is lazy.
squares = (n * n for n in count_up(1))
print([next(squares) for _ in range(5)])
print(next(squares, "none"), type(squares).__name__)


def evens(limit):
    for n in range(limit):
        if n % 2 == 0:
            yield n
    return "evens done"


def delegate():
    result = yield from evens(7)
    print("inner returned", result)
    yield from ["a", "b"]
    return 42


g = delegate()
print(list(g))
try:
    next(g)
except StopIteration as e:
    print("exhausted:", e.value, e.args)


def returns():
    yield 1
    return "value"


r = returns()
print(next(r))
try:
    next(r)
except StopIteration as e:
    print("StopIteration value:", e.value)


# send: the yield's value is what was sent.
def accumulator():
    total = 0
    while True:
        got = yield total
        if got is None:
            break
        total += got
    return total


acc = accumulator()
print(next(acc), acc.send(5), acc.send(10))
try:
    acc.send(None)
except StopIteration as e:
    print("final", e.value)

fresh = accumulator()
try:
    fresh.send(1)
except TypeError as e:
    print("TypeError:", e)


# throw and close run the generator's except and finally blocks.
def guarded():
    try:
        while True:
            try:
                yield "working"
            except ValueError as e:
                print("caught", e)
                yield "recovered"
    finally:
        print("cleanup")


w = guarded()
print(next(w))
print(w.throw(ValueError("bad input")))
print(next(w))
w.close()
print("closed; next gives", next(w, "nothing"))


def stubborn():
    try:
        yield 1
    except GeneratorExit:
        yield 2


s = stubborn()
next(s)
try:
    s.close()
except RuntimeError as e:
    print("RuntimeError:", e)


# A StopIteration raised inside a generator becomes a RuntimeError (PEP 479).
def leaky():
    yield 1
    raise StopIteration("oops")


try:
    print(list(leaky()))
except RuntimeError as e:
    print("RuntimeError:", e, "| cause:", repr(e.__cause__) if e.__cause__ else None)


# Generators in comprehensions and consumers.
def pairs(n):
    for i in range(n):
        yield i, i * i


print({k: v for k, v in pairs(4)})
print([x + y for x, y in pairs(3) if x])
print(sum(v for _, v in pairs(5)), max(k for k, _ in pairs(5)), any(v > 8 for _, v in pairs(4)))
print(sorted((x for x in [3, 1, 2]), reverse=True), tuple(pairs(2)))
nested = (x * y for x in range(3) for y in (x, x + 1))
print(list(nested))
first_big = next(v for _, v in pairs(100) if v > 50)
print(first_big)

# Lazy map, filter, zip, enumerate, iter(callable, sentinel).
taken = []


def noisy(n):
    for i in range(n):
        taken.append(i)
        yield i


m = map(lambda x: x * 10, noisy(100))
print(next(m), next(m), taken)
print(list(filter(None, [0, 1, "", "a", None])), list(filter(lambda x: x > 1, noisy(4))))
print(list(zip(count_up(0), "abc")), list(enumerate("xy", start=5)), list(enumerate(noisy(2), 1)))
try:
    list(zip([1, 2], [3], strict=True))
except ValueError as e:
    print("ValueError:", e)
try:
    list(zip([1], [2], [3, 4], strict=True))
except ValueError as e:
    print("ValueError:", e)
print(list(zip([1, 2], [3, 4], strict=True)))
items = iter([1, 2, 3, 0, 4])
print(list(iter(lambda: next(items), 0)))
z = zip([1, 2, 3], [4, 5, 6])
for a, b in z:
    if a == 2:
        break
print("rest of zip:", list(z))
it = iter(count_up(10))
print(it is iter(it), next(it), list(itertools.islice(it, 3)))


# A for loop over a generator stops taking items at break.
def announce(n):
    for i in range(n):
        print("  producing", i)
        yield i


for v in announce(10):
    if v == 2:
        break


# Generators as methods, and a class whose __iter__ is a generator.
class Tree:
    def __init__(self, value, *children):
        self.value = value
        self.children = children

    def __iter__(self):
        yield self.value
        for child in self.children:
            yield from child

    def depth_first(self, depth=0):
        yield depth, self.value
        for child in self.children:
            yield from child.depth_first(depth + 1)


tree = Tree(1, Tree(2, Tree(3)), Tree(4))
print(list(tree), list(tree.depth_first()))
print(type(tree.depth_first()).__name__, tree.depth_first().__name__, tree.depth_first().__qualname__)


# @contextmanager, with an exception thrown into it.
@contextmanager
def tag(name):
    print(f"<{name}>")
    try:
        yield name.upper()
    except KeyError as e:
        print(f"  {name} handled KeyError {e}")
    finally:
        print(f"</{name}>")


with tag("a") as t:
    print("  inside", t)
with tag("b"):
    raise KeyError("k")
print("after b")
try:
    with tag("c"):
        raise ValueError("not handled")
except ValueError as e:
    print("propagated:", e)


@contextmanager
def suppressing():
    try:
        yield
    except ZeroDivisionError:
        print("suppressed")


with suppressing():
    1 / 0
print("still running")


@contextmanager
def broken():
    if False:
        yield


try:
    with broken():
        pass
except RuntimeError as e:
    print("RuntimeError:", e)

with nullcontext(5) as five:
    print("nullcontext gives", five)
with nullcontext():
    print("nullcontext without a value")


# Generator state: gi_running, finished generators, a generator that is closed unstarted.
def simple():
    yield 1


sg = simple()
print(sg.gi_running, list(sg), list(sg))
unstarted = simple()
unstarted.close()
print(next(unstarted, "closed before it started"))


# Cleanup of a suspended generator when its last reference goes.
def with_cleanup():
    try:
        yield 1
        yield 2
    finally:
        print("generator cleaned up")


c = with_cleanup()
next(c)
del c
print("after del")


# Yield inside try/finally with return.
def early_return():
    try:
        yield "x"
        return "early"
    finally:
        print("finally on return")


print(list(early_return()))
