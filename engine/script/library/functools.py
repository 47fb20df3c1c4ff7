# functools for Fusescope scripts: partial, reduce, wraps, lru_cache and cache (which call
# through: scripts are short runs, and a cache would hide the calls the trace should see).


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


def wraps(wrapped):
    def decorate(wrapper):
        return wrapper
    return decorate


def lru_cache(maxsize=128):
    if callable(maxsize):
        return maxsize
    def decorate(fn):
        return fn
    return decorate


def cache(fn):
    return fn
