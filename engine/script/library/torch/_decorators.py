# PyTorch's context managers as decorators (torch.no_grad() and its kin; the engine calls
# context_decorator when a manager is called with a function): each call of the function
# runs inside a fresh manager, as PyTorch's _DecoratorContextManager.__call__ makes it; a
# generator function's generator runs each of its steps inside one.
import functools

_CO_GENERATOR = 0x20


def context_decorator(make_manager, func):
    if getattr(getattr(func, "__code__", None), "co_flags", 0) & _CO_GENERATOR:
        return _generator_decorator(make_manager, func)

    @functools.wraps(func)
    def decorate_context(*args, **kwargs):
        with make_manager():
            return func(*args, **kwargs)

    return decorate_context


def _generator_decorator(make_manager, func):
    @functools.wraps(func)
    def generator_context(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with make_manager():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with make_manager():
                        gen.close()
                    raise
                except BaseException as error:
                    with make_manager():
                        response = gen.throw(error)
                else:
                    with make_manager():
                        response = gen.send(request)
        except StopIteration as stop:
            return stop.value

    return generator_context
