# torch._dynamo.external_utils's wrap_inline, as PyTorch 2.15 has it: torch.compile of a module
# whose forward is torch.nn's own compiles this frame around the module (torch.nn's frames are
# ones Dynamo skips), so its guards name the module L['fn'] and its arguments L['args'].
import functools


def wrap_inline(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        return fn(*args, **kwargs)

    return inner
