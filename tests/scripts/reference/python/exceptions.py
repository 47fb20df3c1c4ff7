class ShapeError(ValueError):
    def __init__(self, expected, actual):
        super().__init__(f"expected {expected}, got {actual}")
        self.expected = expected
        self.actual = actual


def check(n):
    if n < 0:
        raise ShapeError(0, n)
    if n == 0:
        raise KeyError("zero")
    return n * 2


for n in [3, -1, 0]:
    try:
        r = check(n)
    except ShapeError as e:
        print("shape:", e, e.expected, e.actual, repr(e), e.args, isinstance(e, ValueError))
    except (KeyError, IndexError) as e:
        print("lookup:", e, repr(e), type(e).__name__)
    else:
        print("ok", r)
    finally:
        print("checked", n)

def lookup(d, k):
    try:
        return d[k]
    except KeyError:
        return None
    finally:
        print("lookup done")

print(lookup({"a": 1}, "a"), lookup({}, "b"))

try:
    try:
        1 / 0
    except ZeroDivisionError as e:
        raise RuntimeError("wrapped") from e
except RuntimeError as e:
    print(e, "|", repr(e.__cause__), type(e.__cause__).__name__)

try:
    [1, 2][5]
except LookupError as e:
    print("caught", type(e).__name__, e)

try:
    raise ValueError
except Exception as e:
    print(repr(e), str(e) == "", e.args)

def reraise():
    try:
        int("x")
    except ValueError:
        print("logging")
        raise

try:
    reraise()
except ValueError as e:
    print("outer", e)

class Custom(Exception):
    pass

try:
    raise Custom("a", 2)
except Exception as e:
    print(e, repr(e), e.args)

def f():
    for i in range(5):
        try:
            if i == 2:
                continue
            if i == 4:
                return i
        finally:
            print("finally", i)
print(f())
try:
    undefined_thing
except NameError as e:
    print(e)
try:
    None.foo
except AttributeError as e:
    print(e)
print(issubclass(KeyError, LookupError), issubclass(Custom, BaseException), KeyError.__mro__)
try:
    raise 5
except TypeError as e:
    print(e)
