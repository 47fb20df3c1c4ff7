# contextlib for Fusescope scripts: contextmanager (a generator function as a context
# manager, usable as a decorator too), nullcontext and suppress.
import functools


class _GeneratorContextManager:
    def __init__(self, func, args, kwds):
        self._func, self._args, self._kwds = func, args, kwds
        self.gen = func(*args, **kwds)

    def _recreate_cm(self):
        # A decorated function makes a fresh manager per call: a generator runs once.
        return self.__class__(self._func, self._args, self._kwds)

    def __call__(self, func):
        @functools.wraps(func)
        def inner(*args, **kwds):
            with self._recreate_cm():
                return func(*args, **kwds)

        return inner

    def __enter__(self):
        try:
            return next(self.gen)
        except StopIteration:
            raise RuntimeError("generator didn't yield") from None

    def __exit__(self, typ, value, traceback):
        if typ is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            raise RuntimeError("generator didn't stop")
        if value is None:
            value = typ()
        try:
            self.gen.throw(value)
        except StopIteration as exc:
            # The generator handled the exception and ended: suppressed, unless it was
            # a StopIteration of the with block itself.
            return exc is not value
        except RuntimeError as exc:
            if exc is value:
                return False
            # A StopIteration raised in the block came back as RuntimeError (PEP 479).
            if isinstance(value, StopIteration) and exc.__cause__ is value:
                return False
            raise
        except BaseException as exc:
            if exc is not value:
                raise
            return False
        raise RuntimeError("generator didn't stop after throw()")


def contextmanager(func):
    @functools.wraps(func)
    def helper(*args, **kwds):
        return _GeneratorContextManager(func, args, kwds)

    return helper


class nullcontext:
    def __init__(self, enter_result=None):
        self.enter_result = enter_result

    def __enter__(self):
        return self.enter_result

    def __exit__(self, *excinfo):
        return None


class suppress:
    def __init__(self, *exceptions):
        self._exceptions = exceptions

    def __enter__(self):
        return None

    def __exit__(self, typ, value, traceback):
        return typ is not None and issubclass(typ, self._exceptions)
