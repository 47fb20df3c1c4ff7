# torch.compiler.set_stance (and torch._dynamo.set_stance): a call, a with block and a
# decorator, as PyTorch's _DecoratorContextManager subclass is. Made, it sets the stance at
# once; a with block, or each call of a decorated function, restores the previous one after.
import functools

import torch


class set_stance:
    def __init__(self, stance="default", *, skip_guard_eval_unsafe=False, force_backend=None):
        if force_backend is not None and stance != "default":
            raise RuntimeError("non-default stance cannot have force_backend set")
        if force_backend is not None or skip_guard_eval_unsafe:
            raise NotImplementedError("set_stance's force_backend and skip_guard_eval_unsafe are not supported by Fusescope yet")
        self.stance = stance
        self.prev = torch._dynamo._set_stance(stance)

    def __call__(self, fn):
        torch._dynamo._set_stance(self.prev)  # decorating sets nothing until a call

        @functools.wraps(fn)
        def decorate_stance(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)

        return decorate_stance

    def __enter__(self):
        torch._dynamo._set_stance(self.stance)

    def __exit__(self, exc_type, exc_value, traceback):
        torch._dynamo._set_stance(self.prev)

    def clone(self):
        return set_stance(self.stance)
