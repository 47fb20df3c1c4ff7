# functools for Fusescope scripts: partial, reduce, update_wrapper/wraps, lru_cache and cache,
# total_ordering.
from collections import namedtuple


class partial:
    def __init__(self, func, *args, **keywords):
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **keywords):
        merged = dict(self.keywords)
        merged.update(keywords)
        return self.func(*self.args, *args, **merged)

    def __repr__(self):
        parts = [repr(self.func)] + [repr(a) for a in self.args]
        parts += [f"{k}={v!r}" for k, v in self.keywords.items()]
        return "functools.partial(" + ", ".join(parts) + ")"


_initial_missing = object()


def reduce(function, iterable, initial=_initial_missing):
    items = list(iterable)
    if initial is _initial_missing:
        if not items:
            raise TypeError("reduce() of empty iterable with no initial value")
        value = items[0]
        items = items[1:]
    else:
        value = initial
    for item in items:
        value = function(value, item)
    return value


WRAPPER_ASSIGNMENTS = ("__module__", "__name__", "__qualname__", "__doc__", "__annotations__")
WRAPPER_UPDATES = ("__dict__",)


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    for attr in assigned:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            pass
        else:
            setattr(wrapper, attr, value)
    for attr in updated:
        getattr(wrapper, attr).update(getattr(wrapped, attr, {}))
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    def decorate(wrapper):
        return update_wrapper(wrapper, wrapped, assigned, updated)
    return decorate


_CacheInfo = namedtuple("CacheInfo", ["hits", "misses", "maxsize", "currsize"])

_keyword_mark = object()


def _lru_cache_wrapper(user_function, maxsize, typed):
    # The least recently used entry is the dict's first: a hit moves its entry to the end.
    cache = {}
    counts = [0, 0]  # hits, misses

    def wrapper(*args, **kwds):
        import torch
        if torch.compiler.is_compiling():  # as Dynamo: the wrapped function is traced, the cache ignored
            return user_function(*args, **kwds)
        key = args
        if kwds:
            key += (_keyword_mark,) + tuple(kwds.items())
        if typed:
            key += tuple(type(v) for v in args) + tuple(type(v) for v in kwds.values())
        if key in cache:
            counts[0] += 1
            result = cache.pop(key)
            cache[key] = result
            return result
        counts[1] += 1
        result = user_function(*args, **kwds)
        if maxsize != 0:
            if maxsize is not None and len(cache) >= maxsize:
                del cache[next(iter(cache))]
            cache[key] = result
        return result

    def cache_info():
        return _CacheInfo(counts[0], counts[1], maxsize, len(cache))

    def cache_clear():
        cache.clear()
        counts[0] = counts[1] = 0

    wrapper.cache_info = cache_info
    wrapper.cache_clear = cache_clear
    wrapper.cache_parameters = lambda: {"maxsize": maxsize, "typed": typed}
    return update_wrapper(wrapper, user_function)


def lru_cache(maxsize=128, typed=False):
    if callable(maxsize) and isinstance(typed, bool):  # @lru_cache without arguments
        return _lru_cache_wrapper(maxsize, 128, typed)
    if maxsize is not None:
        if not isinstance(maxsize, int):
            raise TypeError("Expected first argument to be an integer, a callable, or None")
        maxsize = max(maxsize, 0)

    def decorate(user_function):
        return _lru_cache_wrapper(user_function, maxsize, typed)
    return decorate


def cache(user_function):
    return _lru_cache_wrapper(user_function, None, False)


# total_ordering: each comparison a class lacks, derived from the one it defines (the first of
# __lt__, __le__, __gt__, __ge__ in that order, as CPython picks) and __eq__.
def _derived_comparisons(root):
    def derive(name, combine):
        def compare(self, other):
            result = getattr(type(self), root)(self, other)
            if result is NotImplemented:
                return result
            return combine(self, other, result)
        compare.__name__ = compare.__qualname__ = name
        return compare

    rules = {
        "__lt__": {"__gt__": lambda s, o, r: not r and s != o, "__le__": lambda s, o, r: r or s == o, "__ge__": lambda s, o, r: not r},
        "__le__": {"__ge__": lambda s, o, r: not r or s == o, "__lt__": lambda s, o, r: r and s != o, "__gt__": lambda s, o, r: not r},
        "__gt__": {"__lt__": lambda s, o, r: not r and s != o, "__ge__": lambda s, o, r: r or s == o, "__le__": lambda s, o, r: not r},
        "__ge__": {"__le__": lambda s, o, r: not r or s == o, "__gt__": lambda s, o, r: r and s != o, "__lt__": lambda s, o, r: not r},
    }
    return {name: derive(name, combine) for name, combine in rules[root].items()}


def total_ordering(cls):
    defined = [name for name in ("__lt__", "__le__", "__gt__", "__ge__")
               if any(name in vars(c) for c in cls.__mro__ if c is not object)]
    if not defined:
        raise ValueError("must define at least one ordering operation: < > <= >=")
    for name, method in _derived_comparisons(defined[0]).items():
        if name not in defined:
            setattr(cls, name, method)
    return cls
