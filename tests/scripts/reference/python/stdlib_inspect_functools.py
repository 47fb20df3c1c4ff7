# inspect.signature and its Signature/Parameter/BoundArguments, the is*() predicates, a def's
# __code__/__defaults__/__kwdefaults__, positional-only parameters, functools.wraps copying
# what CPython copies, lru_cache and cache that cache (CPython 3.11 printed the .out).
import functools
import inspect


def plain(a, b=2, *args, c, d=4, **kw):
    """Adds things.

        Indented detail.
    """
    return a


def positional_only(x, y=1, /, z=2):
    return x


class Optim:
    def __init__(self, params, lr=0.001, *, fused=None):
        self.params = params

    def step(self, closure=None):
        return closure

    def __call__(self, value, scale=2):
        return value * scale


def decorator(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


@decorator
def wrapped(p, q=3):
    """Wrapped doc."""
    return p + q


for target in [plain, positional_only, Optim, Optim(1).step, Optim(1), wrapped, lambda u, v=5: u]:
    sig = inspect.signature(target)
    print(sig, repr(sig))
    for name, param in sig.parameters.items():
        print(" ", name, param.kind, param.kind.description, param.default is inspect.Parameter.empty, repr(param))

sig = inspect.signature(Optim)
print("fused" in sig.parameters, "momentum" in sig.parameters, list(sig.parameters))
print(wrapped.__name__, wrapped.__qualname__, wrapped.__doc__, wrapped.__wrapped__.__name__)
print(inspect.signature(wrapped, follow_wrapped=False))
print(inspect.getdoc(plain))
print(plain.__defaults__, plain.__kwdefaults__, positional_only.__defaults__, Optim.step.__kwdefaults__)
print(plain.__code__.co_varnames[:plain.__code__.co_argcount + plain.__code__.co_kwonlyargcount + 2])
print(plain.__code__.co_argcount, plain.__code__.co_kwonlyargcount, positional_only.__code__.co_posonlyargcount)
print(plain.__module__, plain.__name__, plain.__qualname__, Optim.step.__qualname__)
print(inspect.isfunction(plain), inspect.isfunction(Optim), inspect.isclass(Optim), inspect.ismethod(Optim(1).step),
      inspect.isbuiltin(len), inspect.isroutine(len), inspect.ismodule(inspect), inspect.ismodule(plain))
print(inspect.isgeneratorfunction(plain))


def gen():
    yield 1


print(inspect.isgeneratorfunction(gen))
bound = inspect.signature(plain).bind(1, 2, 3, c=4, e=5)
print(bound, bound.args, bound.kwargs)
bound.apply_defaults()
print(bound.arguments)
partial = inspect.signature(plain).bind_partial(1)
print(partial)
try:
    inspect.signature(plain).bind(1)
except TypeError as e:
    print("TypeError:", e)
try:
    inspect.signature(3)
except TypeError as e:
    print("TypeError:", e)
print([name for name, value in inspect.getmembers(Optim, inspect.isfunction)])
print(inspect.Parameter("x", inspect.Parameter.KEYWORD_ONLY, default=None))
print(inspect.signature(plain).replace(parameters=[inspect.Parameter("only", inspect.Parameter.POSITIONAL_ONLY)]))
print(inspect.cleandoc("  first\n    second\n      third\n"))


def keyword_positional(a, /, **kw):
    return a, kw


print(keyword_positional(1, a=2))
try:
    positional_only(x=1)
except TypeError as e:
    print("TypeError:", e)
print(positional_only(7, 8, z=9))


@functools.lru_cache(maxsize=2)
def square(n):
    print("computing", n)
    return n * n


print(square(3), square(3), square(4), square(5), square(3))
print(square.cache_info())
square.cache_clear()
print(square.cache_info(), square.__name__, square.__wrapped__.__name__)


@functools.cache
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(30), fib.cache_info())
