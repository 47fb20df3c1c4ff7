# torch.nn.modules.module for Fusescope scripts: the hooks every module call runs and the
# handles registering a hook gives back. Module (torch.nn's, set here once it is defined) reads
# them from here, as PyTorch's module.py has them.
from collections import OrderedDict

import torch


class RemovableHandle:
    """What registering a hook gives back: remove() takes the hook out again."""

    _next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = hooks_dict
        self.id = RemovableHandle._next_id
        RemovableHandle._next_id += 1
        self.extra_dict_ref = [] if extra_dict is None else extra_dict if isinstance(extra_dict, list) else [extra_dict]

    def remove(self):
        self.hooks_dict_ref.pop(self.id, None)
        for extra in self.extra_dict_ref:
            extra.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def _add_hook(hooks, hook, prepend=False, flags=(), extra=None):
    """Puts hook into an ordered dict of hooks (first when prepend), under a new handle's id,
    recorded in each dict of flags too (the hooks that take kwargs, or are always called);
    removing the handle takes the id out of extra (by default, flags) as well."""
    handle = RemovableHandle(hooks, extra_dict=list(flags) if extra is None else extra)
    others = list(hooks.items()) if prepend else []
    if prepend:
        hooks.clear()
    hooks[handle.id] = hook
    hooks.update(others)
    for flag in flags:
        flag[handle.id] = True
    return handle


# The hooks every module call runs (torch.nn.modules.module's register_module_*_hook functions).
_global_backward_pre_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_forward_hooks_always_called = OrderedDict()
_global_forward_hooks_with_kwargs = OrderedDict()


def register_module_forward_pre_hook(hook):
    return _add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    flags = ([_global_forward_hooks_with_kwargs] if with_kwargs else []) + ([_global_forward_hooks_always_called] if always_call else [])
    return _add_hook(_global_forward_hooks, hook, flags=flags,
                     extra=[_global_forward_hooks_with_kwargs, _global_forward_hooks_always_called])


def register_module_full_backward_pre_hook(hook):
    return _add_hook(_global_backward_pre_hooks, hook)


def register_module_full_backward_hook(hook):
    return _add_hook(_global_backward_hooks, hook)
