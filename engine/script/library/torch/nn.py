# torch.nn for Fusescope scripts, written on Python's object model as PyTorch writes it:
# a Module keeps _parameters, _buffers and _modules and routes attribute access through
# them, so named_parameters() order, state_dict() keys, train()/eval() and repr(model) are
# PyTorch's. Parameters start from Fusescope's own generator (PyTorch's initial values
# differ; shapes, names and counts do not). The engine provides Parameter and functional.
import math
import warnings
from collections import OrderedDict

import torch
from torch.autograd.function import Function as _Function
import torch.nn.modules.module as _module_file
from torch.nn.modules.module import (RemovableHandle, _add_hook, _global_backward_hooks, _global_backward_pre_hooks,
                                     _global_forward_hooks, _global_forward_hooks_always_called,
                                     _global_forward_hooks_with_kwargs, _global_forward_pre_hooks)
from torch.nn.modules.utils import _single

Parameter = torch.nn.Parameter
F = torch.nn.functional


def _typename(obj):
    if isinstance(obj, torch.Tensor):
        return {torch.float32: "torch.FloatTensor", torch.float64: "torch.DoubleTensor", torch.int64: "torch.LongTensor"}.get(obj.dtype, "torch.Tensor")
    return type(obj).__name__


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    first = lines.pop(0)
    return first + "\n" + "\n".join([(spaces * " ") + line for line in lines])


class _IncompatibleKeys:
    def __init__(self, missing_keys, unexpected_keys):
        self.missing_keys = missing_keys
        self.unexpected_keys = unexpected_keys

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"


# A module's hooks, each an ordered dict of hook id -> hook (or -> True: the flags), made by
# Module.__init__ as PyTorch's.
_HOOK_DICTS = ("_backward_pre_hooks", "_backward_hooks", "_forward_hooks", "_forward_hooks_with_kwargs",
               "_forward_hooks_always_called", "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_state_dict_hooks",
               "_state_dict_pre_hooks", "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks")

class _BackwardHookFunction(_Function):
    """The identity on the tensors of a module's inputs or outputs that require grad, whose
    backward hands their gradients to on_backward (PyTorch's torch.utils.hooks.BackwardHook)."""

    @staticmethod
    def forward(ctx, on_backward, *tensors):
        ctx.on_backward = on_backward
        return tensors

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + tuple(ctx.on_backward(grads))


def _through_backward_hook(values, on_backward):
    """values (a tuple) with its tensors that require grad passed through a
    _BackwardHookFunction; on_backward gets a gradient for each of the values (None for those
    that take none, as PyTorch packs grad_input and grad_output) and may give others back."""
    tracked = [i for i, v in enumerate(values) if isinstance(v, torch.Tensor) and v.requires_grad]
    if not tracked or not torch.is_grad_enabled():
        return values, False

    def spread(grads):  # the tracked tensors' gradients, placed among all the values'
        by_position = dict(zip(tracked, grads))
        full = on_backward(tuple(by_position.get(i) for i in range(len(values))))
        return [full[i] for i in tracked]

    passed = _BackwardHookFunction.apply(spread, *[values[i] for i in tracked])
    values = list(values)
    for i, tensor in zip(tracked, passed):
        values[i] = tensor
    return tuple(values), True


class _BackwardHook:
    """A module call's full backward hooks and backward pre-hooks (PyTorch's
    torch.utils.hooks.BackwardHook): the pre-hooks see the gradients of the call's outputs, the
    hooks those of its inputs beside them."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None
        self.n_inputs = 0
        self.inputs_tracked = False

    def setup_input_hook(self, args):
        if not self.user_hooks:
            return args
        self.n_inputs = len(args)
        args, self.inputs_tracked = _through_backward_hook(
            args, lambda grad_input: self.module._run_backward_hooks(self.user_hooks, grad_input, self.grad_outputs))
        return args

    def setup_output_hook(self, output):
        def on_output_gradients(grads):
            for hook in self.user_pre_hooks:
                result = hook(self.module, grads)
                if result is not None:
                    grads = tuple(result) if isinstance(result, (tuple, list)) else (result,)
            self.grad_outputs = grads
            if not self.inputs_tracked and self.user_hooks:  # no input takes a gradient: the hooks hear of the outputs'
                warnings.warn("Full backward hook is firing when gradients are computed with respect to module outputs "
                              "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
                              "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.",
                              stacklevel=5)  # the line that ran backward
                self.module._run_backward_hooks(self.user_hooks, (None,) * self.n_inputs, grads)
            return grads

        single = isinstance(output, torch.Tensor)
        passed, _ = _through_backward_hook((output,) if single else tuple(output), on_output_gradients)
        return passed[0] if single else type(output)(passed)


class Module:
    training: bool
    _compiled_call_impl = None  # set by Module.compile()

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} were given")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        for name in _HOOK_DICTS:
            object.__setattr__(self, name, OrderedDict())
        object.__setattr__(self, "_modules", {})

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    # A module call, written line for line as PyTorch's (module.py), whose lines the guards Dynamo
    # makes while tracing a module with hooks name. A traced call of a module without hooks runs
    # its forward straight, as Dynamo's does (Interpreter::callInstance).
    def _wrapped_call_impl(self, *args, **kwargs):
        if self._compiled_call_impl is not None:
            return self._compiled_call_impl(*args, **kwargs)  # type: ignore[misc]
        else:
            return self._call_impl(*args, **kwargs)

    def _slow_forward(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def _call_impl(self, *args, **kwargs):
        forward_call = (self._slow_forward if torch._C._is_tracing() else self.forward)
        if not (self._backward_hooks or self._backward_pre_hooks or self._forward_hooks or self._forward_pre_hooks
                or _global_backward_pre_hooks or _global_backward_hooks
                or _global_forward_hooks or _global_forward_pre_hooks):
            return forward_call(*args, **kwargs)

        result = None
        called_always_called_hooks = set()

        def inner():
            nonlocal result, args, kwargs

            full_backward_hooks, non_full_backward_hooks = [], []
            backward_pre_hooks = []
            if self._backward_pre_hooks or _global_backward_pre_hooks:
                backward_pre_hooks = self._get_backward_pre_hooks()

            if self._backward_hooks or _global_backward_hooks:
                full_backward_hooks, non_full_backward_hooks = self._get_backward_hooks()

            if _global_forward_pre_hooks or self._forward_pre_hooks:
                for hook_id, hook in (
                    *_global_forward_pre_hooks.items(),
                    *self._forward_pre_hooks.items(),
                ):
                    if hook_id in self._forward_pre_hooks_with_kwargs:
                        args_kwargs_result = hook(self, args, kwargs)  # type: ignore[misc]
                        if args_kwargs_result is not None:
                            if isinstance(args_kwargs_result, tuple) and len(args_kwargs_result) == 2:
                                args, kwargs = args_kwargs_result
                            else:
                                raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                                   f"but got {args_kwargs_result}.")
                    else:
                        args_result = hook(self, args)
                        if args_result is not None:
                            if not isinstance(args_result, tuple):
                                args_result = (args_result,)
                            args = args_result

            bw_hook = None
            if full_backward_hooks or backward_pre_hooks:
                bw_hook = _BackwardHook(self, full_backward_hooks, backward_pre_hooks)
                args = bw_hook.setup_input_hook(args)

            result = forward_call(*args, **kwargs)
            if _global_forward_hooks or self._forward_hooks:
                for hook_id, hook in (
                    *_global_forward_hooks.items(),
                    *self._forward_hooks.items(),
                ):
                    if hook_id in self._forward_hooks_always_called or hook_id in _global_forward_hooks_always_called:
                        called_always_called_hooks.add(hook_id)

                    if hook_id in self._forward_hooks_with_kwargs or hook_id in _global_forward_hooks_with_kwargs:
                        hook_result = hook(self, args, kwargs, result)
                    else:
                        hook_result = hook(self, args, result)

                    if hook_result is not None:
                        result = hook_result

            if bw_hook:
                if not isinstance(result, (torch.Tensor, tuple)):
                    warnings.warn("For backward hooks to be called, module output should be a Tensor or a tuple of Tensors "
                                  f"but received {type(result)}", stacklevel=2)
                result = bw_hook.setup_output_hook(result)

            return result

        # Compiled, a forward that raises is not caught here (Dynamo traces no such handler).
        if torch.compiler.is_compiling():
            return inner()

        try:
            return inner()
        except Exception:
            # the hooks registered with always_call run even when forward raised
            for hook_id, hook in (*_global_forward_hooks.items(), *self._forward_hooks.items()):
                if hook_id not in called_always_called_hooks and (
                        hook_id in _global_forward_hooks_always_called or hook_id in self._forward_hooks_always_called):
                    try:
                        takes_kwargs = hook_id in self._forward_hooks_with_kwargs or hook_id in _global_forward_hooks_with_kwargs
                        hook_result = hook(self, args, kwargs, result) if takes_kwargs else hook(self, args, result)
                        result = result if hook_result is None else hook_result
                    except Exception as e:
                        where = "global module" if hook_id in _global_forward_hooks else "module"
                        warnings.warn(f"{where} forward hook with ``always_call=True`` raised an exception that was silenced "
                                      f"as another error was raised in forward: {str(e)}", stacklevel=2)
            raise

    __call__ = _wrapped_call_impl

    def _get_backward_hooks(self):
        return [*_global_backward_hooks.values(), *self._backward_hooks.values()], []

    def _get_backward_pre_hooks(self):
        return [*_global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()]

    def _dynamo_refusal(self):
        """Why a compiled function's trace stops at this module's call (None: it does not): as
        Dynamo, at a module with backward hooks, which then runs eagerly."""
        if self._backward_hooks or self._backward_pre_hooks or _global_backward_hooks or _global_backward_pre_hooks:
            return "Module-level backwards hooks require compiled autograd."
        return None

    def _run_backward_hooks(self, hooks, grad_input, grad_output):
        for hook in hooks:
            result = hook(self, grad_input, grad_output)
            if result is not None:
                result = tuple(result) if isinstance(result, (tuple, list)) else (result,)
                if len(result) != len(grad_input):
                    raise RuntimeError(f"Backward hook returned an invalid number of grad_input, got {len(result)}, "
                                       f"but expected {len(grad_input)}")
                grad_input = result
        return grad_input

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        return _add_hook(self._forward_pre_hooks, hook, prepend, [self._forward_pre_hooks_with_kwargs] if with_kwargs else [])

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        flags = ([self._forward_hooks_with_kwargs] if with_kwargs else []) + ([self._forward_hooks_always_called] if always_call else [])
        return _add_hook(self._forward_hooks, hook, prepend, flags, extra=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called])

    def register_full_backward_hook(self, hook, prepend=False):
        return _add_hook(self._backward_hooks, hook, prepend)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        return _add_hook(self._backward_pre_hooks, hook, prepend)

    def register_backward_hook(self, hook):
        raise NotImplementedError("Module.register_backward_hook (deprecated in PyTorch) is not supported by Fusescope: "
                                  "use register_full_backward_hook")

    def register_state_dict_pre_hook(self, hook):
        return _add_hook(self._state_dict_pre_hooks, hook)

    def _register_state_dict_hook(self, hook):
        return _add_hook(self._state_dict_hooks, hook)

    def register_state_dict_post_hook(self, hook):
        return self._register_state_dict_hook(hook)

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        if with_module:
            module = self
            return _add_hook(self._load_state_dict_pre_hooks, lambda *args: hook(module, *args))
        return _add_hook(self._load_state_dict_pre_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook):
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook):
        return _add_hook(self._load_state_dict_post_hooks, hook)

    def compile(self, *args, **kwargs):
        object.__setattr__(self, "_compiled_call_impl", torch.compile(self.forward, *args, **kwargs))

    # ------------------------------------------------------------------ registration

    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' (torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' (torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        self._modules[name] = module

    def register_module(self, name, module):
        self.add_module(name, module)

    # -------------------------------------------------------------- attribute routing

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in _HOOK_DICTS:  # a module pickled without some of them
            self.__dict__.setdefault(name, OrderedDict())

    def __getattr__(self, name):
        # Dynamo's order (a name is in one of them only): the dicts read are the ones it guards.
        d = self.__dict__
        if "_parameters" in d and name in d["_parameters"]:
            return d["_parameters"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _remove_from(self, name, *places):
        for place in places:
            if name in place:
                del place[name]

    def __setattr__(self, name, value):
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._remove_from(name, d, self._buffers, self._modules)
            self._non_persistent_buffers_set.discard(name)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' (torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = d.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                self._remove_from(name, d, self._parameters, self._buffers)
                self._non_persistent_buffers_set.discard(name)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' (torch.nn.Module or None expected)")
                modules[name] = value
            else:
                buffers = d.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, torch.Tensor):
                        raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' (torch.Tensor or None expected)")
                    buffers[name] = value
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    # ----------------------------------------------------------------- traversal

    def _named_members(self, get_members, prefix="", recurse=True, remove_duplicate=True):
        memo = []
        out = []
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members(module):
                if v is None:
                    continue
                if remove_duplicate:
                    if any(v is m for m in memo):
                        continue
                    memo.append(v)
                out.append((module_prefix + ("." if module_prefix else "") + k, v))
        return out

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        return iter(self._named_members(lambda m: m._parameters.items(), prefix, recurse, remove_duplicate))

    def parameters(self, recurse=True):
        return iter([p for _, p in self.named_parameters(recurse=recurse)])

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return iter(self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate))

    def buffers(self, recurse=True):
        return iter([b for _, b in self.named_buffers(recurse=recurse)])

    def named_children(self):
        out = []
        for name, module in self._modules.items():
            if module is not None and not any(module is m for _, m in out):
                out.append((name, module))
        return iter(out)

    def children(self):
        return iter([m for _, m in self.named_children()])

    def _collect_modules(self, memo, prefix, remove_duplicate, out):
        if remove_duplicate:
            if any(self is m for m in memo):
                return
            memo.append(self)
        out.append((prefix, self))
        for name, module in self._modules.items():
            if module is None:
                continue
            module._collect_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate, out)

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        out = []
        self._collect_modules([], prefix, remove_duplicate, out)
        return iter(out)

    def modules(self):
        return iter([m for _, m in self.named_modules()])

    def get_submodule(self, target):
        module = self
        if target == "":
            return module
        for item in target.split("."):
            if item not in module._modules:
                raise AttributeError(module._get_name() + " has no attribute `" + item + "`")
            module = module._modules[item]
        return module

    def get_parameter(self, target):
        module_path, _, name = target.rpartition(".") if "." in target else ("", "", target)
        module = self.get_submodule(module_path)
        if name not in module._parameters:
            raise AttributeError(module._get_name() + " has no parameter `" + name + "`")
        return module._parameters[name]

    # ------------------------------------------------------------------- modes

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                p.grad = None

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def _apply_to_tensors(self, convert):
        for module in self.modules():
            for name, p in module._parameters.items():
                if p is not None:
                    module._parameters[name] = Parameter(convert(p.detach()), p.requires_grad)
            for name, b in module._buffers.items():
                if b is not None:
                    module._buffers[name] = convert(b)
        return self

    def to(self, *args, **kwargs):
        return self._apply_to_tensors(lambda t: t.to(*args, **kwargs))

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None):
        return self.to("cuda" if device is None else device)

    def float(self):
        return self._apply_to_tensors(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply_to_tensors(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply_to_tensors(lambda t: t.half() if t.is_floating_point() else t)

    # -------------------------------------------------------------- state dicts

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        if destination is None:
            destination = OrderedDict()
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, {})
            if result is not None:
                destination = result
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        """This module's own parameters and persistent buffers from state_dict's keys under
        prefix, after its load_state_dict pre-hooks (which may rename keys), as PyTorch's."""
        for hook in list(self._load_state_dict_pre_hooks.values()):
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        local = {}
        local.update((k, v) for k, v in self._parameters.items() if v is not None)
        local.update((k, v) for k, v in self._buffers.items() if v is not None and k not in self._non_persistent_buffers_set)
        for name, target in local.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if tuple(value.shape) != tuple(target.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {value.shape} from checkpoint, "
                                  f"the shape in current model is {target.shape}.")
                continue
            with torch.no_grad():
                target.copy_(value)
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix):
                    input_name = key[len(prefix):].split(".", 1)
                    if len(input_name) > 1:
                        if input_name[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif input_name[0] not in local:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        state_dict = OrderedDict(state_dict)  # the hooks may change it; the caller's stays
        missing, unexpected, errors = [], [], []
        incompatible = _IncompatibleKeys(missing, unexpected)

        def load(module, prefix):
            module._load_from_state_dict(state_dict, prefix, {}, True, missing, unexpected, errors)
            for name, child in module._modules.items():
                if child is not None:
                    load(child, prefix + name + ".")
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, incompatible) is not None:
                    raise AssertionError("Hooks registered with ``register_load_state_dict_post_hook`` are not"
                                       "expected to return new values, if incompatible_keys need to be modified,"
                                       "it should be done inplace.")

        load(self, "")
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(self._get_name(), "\n\t".join(errors)))
        return incompatible

    # ------------------------------------------------------------------ printing

    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        return ""

    def __repr__(self):
        extra_lines = []
        extra = self.extra_repr()
        if extra:
            extra_lines = extra.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            child_lines.append("(" + key + "): " + _addindent(repr(module), 2))
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


# --------------------------------------------------------------------- containers


_module_file.Module = Module  # torch.nn.modules.module.Module


class Sequential(Module):
    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return Sequential(OrderedDict(list(self._modules.items())[idx]))
        items = list(self._modules.values())
        if not -len(items) <= idx < len(items):
            raise IndexError(f"index {idx} is out of range")
        return items[idx]

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


class ModuleList(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _index(self, idx):
        n = len(self._modules)
        if not -n <= idx < n:
            raise IndexError(f"index {idx} is out of range")
        return str(idx % n)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ModuleList(list(self._modules.values())[idx])
        return self._modules[self._index(idx)]

    def __setitem__(self, idx, module):
        self.add_module(self._index(idx), module)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def insert(self, index, module):
        items = list(self._modules.values())
        items.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(items):
            self.add_module(str(i), m)

    def __repr__(self):
        # Runs of equal children print once, as "(0-2): 3 x Block(...)".
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        groups = []
        start = 0
        for i in range(1, len(reprs) + 1):
            if i == len(reprs) or reprs[i] != reprs[start]:
                groups.append((start, i - 1, reprs[start]))
                start = i
        lines = []
        for first, last, text in groups:
            text = _addindent(text, 2)
            if first == last:
                lines.append(f"({first}): {text}")
            else:
                lines.append(f"({first}-{last}): {last - first + 1} x {text}")
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.keys()))

    def __contains__(self, key):
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        pairs = modules.items() if isinstance(modules, (dict, ModuleDict)) else modules
        for key, module in pairs:
            self[key] = module


# ------------------------------------------------------------------------- layers


class Identity(Module):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        # PyTorch's default: kaiming_uniform_(a=sqrt(5)), i.e. U(-1/sqrt(in), 1/sqrt(in)).
        bound = 1 / math.sqrt(in_features) if in_features > 0 else 0
        self.weight = Parameter((torch.rand(out_features, in_features) * 2 - 1) * bound)
        if bias:
            self.bias = Parameter((torch.rand(out_features) * 2 - 1) * bound)
        else:
            self.register_parameter("bias", None)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if padding_idx > 0:
                assert padding_idx < num_embeddings, "Padding_idx must be within num_embeddings"
            elif padding_idx < 0:
                assert padding_idx >= -num_embeddings, "Padding_idx must be within num_embeddings"
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        if _weight is None:
            self.weight = Parameter(torch.randn(num_embeddings, embedding_dim), requires_grad=not _freeze)
            if padding_idx is not None:
                with torch.no_grad():
                    self.weight[padding_idx].fill_(0)
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def forward(self, input):
        return F.embedding(
            input,
            self.weight,
            self.padding_idx,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.sparse,
        )

    def extra_repr(self):
        s = "{num_embeddings}, {embedding_dim}"
        if self.padding_idx is not None:
            s += ", padding_idx={padding_idx}"
        if self.max_norm is not None:
            s += ", max_norm={max_norm}"
        if self.norm_type != 2:
            s += ", norm_type={norm_type}"
        if self.scale_grad_by_freq is not False:
            s += ", scale_grad_by_freq={scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s.format(**self.__dict__)


def _norm_affine(module, shape, affine, bias):
    """A normalisation layer's weight (ones) and bias (zeros), each None where switched off."""
    if affine:
        module.weight = Parameter(torch.ones(shape))
        if bias:
            module.bias = Parameter(torch.zeros(shape))
        else:
            module.register_parameter("bias", None)
    else:
        module.register_parameter("weight", None)
        module.register_parameter("bias", None)


def _running_statistics(module, num_features, track):
    """A batch or instance norm's running mean and variance and its batch count, each None
    when it keeps none."""
    module.register_buffer("running_mean", torch.zeros(num_features) if track else None)
    module.register_buffer("running_var", torch.ones(num_features) if track else None)
    module.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long) if track else None)


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _norm_affine(self, self.normalized_shape, elementwise_affine, bias)

    def forward(self, input):
        return F.layer_norm(
            input, self.normalized_shape, self.weight, self.bias, self.eps
        )

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, bias={self.bias is not None or not self.elementwise_affine}"


class _ConvNd(Module):
    _dims = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None, transposed=False, output_padding=0):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str) or padding_mode != "zeros":
            raise NotImplementedError(f"{type(self).__name__}(padding={padding!r}, padding_mode={padding_mode!r}): Fusescope pads "
                                      "with zeros by a number of elements only so far")
        n = self._dims
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = F._spatial(kernel_size, n)
        self.stride = F._spatial(stride, n)
        self.padding = F._spatial(padding, n)
        self.dilation = F._spatial(dilation, n)
        self.transposed = transposed
        self.output_padding = F._spatial(output_padding, n)
        self.groups = groups
        self.padding_mode = padding_mode
        # A transposed convolution's weight is (in, out / groups, *kernel): its dim 1 is the fan in.
        shape = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        # PyTorch's default, kaiming_uniform_(a=sqrt(5)): U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
        fan_in = shape[1]
        for k in self.kernel_size:
            fan_in *= k
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        self.weight = Parameter((torch.rand(*shape, *self.kernel_size) * 2 - 1) * bound)
        if bias:
            self.bias = Parameter((torch.rand(out_channels) * 2 - 1) * bound)
        else:
            self.register_parameter("bias", None)

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Conv1d(_ConvNd):
    _dims = 1

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":  # refused by __init__; read here as PyTorch's reads it (a guard)
            raise NotImplementedError(f"padding_mode={self.padding_mode!r}")
        return F.conv1d(
            input, weight, bias, self.stride, self.padding, self.dilation, self.groups
        )

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv2d(_ConvNd):
    _dims = 2

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":  # refused by __init__; read here as PyTorch's reads it (a guard)
            raise NotImplementedError(f"padding_mode={self.padding_mode!r}")
        return F.conv2d(
            input, weight, bias, self.stride, self.padding, self.dilation, self.groups
        )

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv3d(_ConvNd):
    _dims = 3

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":  # refused by __init__; read here as PyTorch's reads it (a guard)
            raise NotImplementedError(f"padding_mode={self.padding_mode!r}")
        return F.conv3d(
            input, weight, bias, self.stride, self.padding, self.dilation, self.groups
        )

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class _ConvTransposeNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                 dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias, padding_mode,
                         transposed=True, output_padding=output_padding)

    # _output_padding and the forwards are written statement by statement as PyTorch's
    # (torch/nn/modules/conv.py), so that their guards read the same attributes on the same lines.
    def _output_padding(
        self,
        input,
        output_size,
        stride,
        padding,
        kernel_size,
        num_spatial_dims,
        dilation=None,
    ):
        if output_size is None:
            ret = _single(self.output_padding)  # converting to list if was not already
        else:
            has_batch_dim = input.dim() == num_spatial_dims + 2
            num_non_spatial_dims = 2 if has_batch_dim else 1
            if len(output_size) == num_non_spatial_dims + num_spatial_dims:
                output_size = output_size[num_non_spatial_dims:]
            if len(output_size) != num_spatial_dims:
                raise ValueError(
                    f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, output_size must have {num_spatial_dims} "
                    f"or {num_non_spatial_dims + num_spatial_dims} elements (got {len(output_size)})"
                )

            min_sizes = torch.jit.annotate(list[int], [])
            max_sizes = torch.jit.annotate(list[int], [])
            for d in range(num_spatial_dims):
                dim_size = (
                    (input.size(d + num_non_spatial_dims) - 1) * stride[d]
                    - 2 * padding[d]
                    + (dilation[d] if dilation is not None else 1)
                    * (kernel_size[d] - 1)
                    + 1
                )
                min_sizes.append(dim_size)
                max_sizes.append(min_sizes[d] + stride[d] - 1)

            for i in range(len(output_size)):
                size = output_size[i]
                min_size = min_sizes[i]
                max_size = max_sizes[i]
                if size < min_size or size > max_size:
                    raise ValueError(
                        f"requested an output size of {output_size}, but valid sizes range "
                        f"from {min_sizes} to {max_sizes} (for an input of {input.size()[2:]})"
                    )

            res = torch.jit.annotate(list[int], [])
            for d in range(num_spatial_dims):
                res.append(output_size[d] - min_sizes[d])

            ret = res
        return ret


class ConvTranspose1d(_ConvTransposeNd):
    _dims = 1

    def forward(self, input, output_size=None):
        if self.padding_mode != "zeros":
            raise ValueError(
                "Only `zeros` padding mode is supported for ConvTranspose1d"
            )

        if not isinstance(self.padding, tuple):
            raise AssertionError("self.padding must be a tuple")
        num_spatial_dims = 1
        output_padding = self._output_padding(
            input,
            output_size,
            self.stride,  # type: ignore[arg-type]
            self.padding,  # type: ignore[arg-type]
            self.kernel_size,  # type: ignore[arg-type]
            num_spatial_dims,
            self.dilation,  # type: ignore[arg-type]
        )
        return F.conv_transpose1d(
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            output_padding,
            self.groups,
            self.dilation,
        )


class ConvTranspose2d(_ConvTransposeNd):
    _dims = 2

    def forward(self, input, output_size=None):
        if self.padding_mode != "zeros":
            raise ValueError(
                "Only `zeros` padding mode is supported for ConvTranspose2d"
            )

        if not isinstance(self.padding, tuple):
            raise AssertionError("self.padding must be a tuple")
        num_spatial_dims = 2
        output_padding = self._output_padding(
            input,
            output_size,
            self.stride,  # type: ignore[arg-type]
            self.padding,  # type: ignore[arg-type]
            self.kernel_size,  # type: ignore[arg-type]
            num_spatial_dims,
            self.dilation,  # type: ignore[arg-type]
        )

        return F.conv_transpose2d(
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            output_padding,
            self.groups,
            self.dilation,
        )


class _BatchNorm(Module):
    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None, *,
                 bias=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        _norm_affine(self, num_features, affine, bias)
        _running_statistics(self, num_features, track_running_stats)

    # Statement by statement as PyTorch's, so that its guards read the same attributes on the
    # same lines (torch/nn/modules/batchnorm.py, engine/script/torch_lines.h).
    def forward(self, input):
        self._check_input_dim(input)

        if self.momentum is None:
            exponential_average_factor = 0.0
        else:
            exponential_average_factor = self.momentum

        if self.training and self.track_running_stats:
            if self.num_batches_tracked is not None:
                self.num_batches_tracked.add_(1)
                if self.momentum is None:  # a cumulative moving average
                    exponential_average_factor = 1.0 / float(self.num_batches_tracked)
                else:
                    exponential_average_factor = self.momentum

        # The batch's statistics in training, and in eval where no running ones are kept.
        if self.training:
            bn_training = True
        else:
            bn_training = (self.running_mean is None) and (self.running_var is None)

        # The running statistics are passed where they are used or updated.
        return F.batch_norm(
            input,
            (
                self.running_mean
                if not self.training or self.track_running_stats
                else None
            ),
            self.running_var if not self.training or self.track_running_stats else None,
            self.weight,
            self.bias,
            bn_training,
            exponential_average_factor,
            self.eps,
        )

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _norm_affine(self, num_channels, affine, bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, bias={self.bias is not None}"


class _InstanceNorm(Module):
    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        _norm_affine(self, num_features, affine, bias)
        _running_statistics(self, num_features, track_running_stats)

    def _handle_no_batch_input(self, input):
        return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)

    # Statement by statement as PyTorch's: Dynamo's guards name these lines.
    def _apply_instance_norm(self, input):
        return F.instance_norm(
            input,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )

    def forward(self, input):
        self._check_input_dim(input)

        feature_dim = input.dim() - self._get_no_batch_dim()
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features"
                    f" ({self.num_features}), but got: {input.size(feature_dim)}."
                )
            else:
                warnings.warn(
                    f"input's size at dim={feature_dim} does not match num_features. "
                    "You can silence this warning by not passing in num_features, "
                    "which is not used because affine=False",
                    stacklevel=2,
                )

        if input.dim() == self._get_no_batch_dim():
            return self._handle_no_batch_input(input)

        return self._apply_instance_norm(input)

    extra_repr = _BatchNorm.extra_repr


class InstanceNorm1d(_InstanceNorm):
    def _get_no_batch_dim(self):
        return 2

    def _check_input_dim(self, input):
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class InstanceNorm2d(_InstanceNorm):
    def _get_no_batch_dim(self):
        return 3

    def _check_input_dim(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"expected 3D or 4D input (got {input.dim()}D input)")


class InstanceNorm3d(_InstanceNorm):
    def _get_no_batch_dim(self):
        return 4

    def _check_input_dim(self, input):
        if input.dim() not in (4, 5):
            raise ValueError(f"expected 4D or 5D input (got {input.dim()}D input)")


class PixelShuffle(Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"


class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, dilation={self.dilation}, "
                f"ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    def forward(self, input):
        return F.max_pool1d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class MaxPool2d(_MaxPoolNd):
    def forward(self, input):
        return F.max_pool2d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class MaxPool3d(_MaxPoolNd):
    def forward(self, input):
        return F.max_pool3d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class _AvgPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(_AvgPoolNd):
    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad,
                            self.divisor_override)


class AvgPool3d(_AvgPoolNd):
    def forward(self, input):
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad,
                            self.divisor_override)


class _AdaptiveAvgPoolNd(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    def forward(self, input):
        return F.adaptive_avg_pool3d(input, self.output_size)


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


# The __init__ and extra_repr of the activations taking only `inplace`: each such class derives
# from Module itself, as PyTorch's do (Dynamo guards the classes along a module's MRO).
def _init_inplace(self, inplace=False):
    Module.__init__(self)
    self.inplace = inplace


def _inplace_repr(self):
    return "inplace=True" if self.inplace else ""


class ReLU(Module):
    __init__ = _init_inplace
    extra_repr = _inplace_repr

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        assert self.max_val > self.min_val

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class ReLU6(Hardtanh):
    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    extra_repr = _inplace_repr


class Hardswish(Module):
    __init__ = _init_inplace
    extra_repr = _inplace_repr

    def forward(self, input):
        return F.hardswish(input, self.inplace)


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class SiLU(Module):
    __init__ = _init_inplace
    extra_repr = _inplace_repr

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Tanh(Module):
    def forward(self, input):
        return torch.tanh(input)


class Sigmoid(Module):
    def forward(self, input):
        return torch.sigmoid(input)


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmin(Softmax):
    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


class LogSoftmax(Softmax):
    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)


class Softmax2d(Module):
    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class Flatten(Module):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class _Pad(Module):
    """The padding layers: F.pad with `padding` given once (every side), or per side."""

    def __init__(self, padding, dims, mode, value=None):
        super().__init__()
        self.padding = tuple(padding) if isinstance(padding, (list, tuple)) else (padding,) * (2 * dims)
        self.mode = mode
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, self.mode, self.value)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad1d(_Pad):
    def __init__(self, padding):
        super().__init__(padding, 1, "constant", 0.0)


class ZeroPad2d(_Pad):
    def __init__(self, padding):
        super().__init__(padding, 2, "constant", 0.0)


class ConstantPad1d(_Pad):
    def __init__(self, padding, value):
        super().__init__(padding, 1, "constant", value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad2d(ConstantPad1d):
    def __init__(self, padding, value):
        _Pad.__init__(self, padding, 2, "constant", value)


class ReflectionPad1d(_Pad):
    def __init__(self, padding):
        super().__init__(padding, 1, "reflect")


class ReflectionPad2d(_Pad):
    def __init__(self, padding):
        super().__init__(padding, 2, "reflect")


class ReplicationPad1d(_Pad):
    def __init__(self, padding):
        super().__init__(padding, 1, "replicate")


class ReplicationPad2d(_Pad):
    def __init__(self, padding):
        super().__init__(padding, 2, "replicate")


# ------------------------------------------------------------------------- init


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, reduction=self.reduction, pos_weight=self.pos_weight)


class L1Loss(_Loss):
    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index, reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean", label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index, reduction=self.reduction,
                               label_smoothing=self.label_smoothing)
