# Qualified names as Python 3.11 gives them: a function's nested defs and classes are
# "outer.<locals>.inner", a class's methods "Cls.method"; __qualname__ is the class's own
# (kept out of its __dict__, so instances have none), and every class has a __doc__.
import functools


def outer():
    def inner():
        pass

    class Local:
        def method(self):
            pass

    return inner, Local


inner, Local = outer()
print(inner.__qualname__, Local.__qualname__, Local.method.__qualname__)
print(repr(inner).split(" at ")[0])


class Plain:
    """Documented."""

    class Nested:
        pass


print(Plain.__qualname__, Plain.Nested.__qualname__, "__qualname__" in Plain.__dict__)
print(hasattr(Plain(), "__qualname__"), hasattr(Plain(), "__name__"), Plain().__doc__, Plain.Nested().__doc__)
Named = type("Named", (), {"__qualname__": "Somewhere.Named"})
print(Named.__name__, Named.__qualname__, "__qualname__" in Named.__dict__)


def wrap(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)

    return wrapper


class Callable:
    def __call__(self, x):
        return x + 1


wrapped = wrap(Callable())
print(wrapped.__name__, wrapped.__qualname__, wrapped(1))
