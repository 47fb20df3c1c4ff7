# copy for Fusescope scripts: shallow and deep copies as CPython's copy module makes them.
# Containers are rebuilt, instances of Python classes are made with cls.__new__ and given a
# copy of their __dict__ (so a deep copy of a module copies its parameters, buffers and
# submodules), __copy__ and __deepcopy__ are honoured, and the memo keeps shared objects shared
# (tied weights stay tied). Tensors and Parameters copy as torch's __deepcopy__ does.
import torch


class Error(Exception):
    pass


error = Error

def _function():
    pass


# What copies as itself, as in CPython: numbers, strings, types, functions, modules, dtypes.
_atomic = (type(None), bool, int, float, str, type, range, type(_function), type(print), type(len), type(torch),
           type(torch.float32), type(torch.device("cpu")))


def _is_atomic(x):
    return isinstance(x, _atomic) or isinstance(x, type)


def copy(x):
    cls = type(x)
    if isinstance(x, dict) and hasattr(x, "default_factory"):  # a defaultdict keeps its factory
        return cls(x.default_factory, x)
    if cls in (list, dict, set) or isinstance(x, dict):
        return cls(x)
    if cls is tuple or _is_atomic(x):
        return x
    hook = getattr(cls, "__copy__", None)
    if hook is not None:
        return hook(x)
    if isinstance(x, torch.Tensor):
        raise Error(f"un(shallow)copyable object of type {cls}")
    y = cls.__new__(cls)
    y.__dict__.update(x.__dict__)
    return y


def _deepcopy_tensor(x, memo):
    if isinstance(x, torch.nn.Parameter):
        return torch.nn.Parameter(x.detach().clone(), x.requires_grad)
    if not x.is_leaf:
        raise RuntimeError(
            "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  "
            "If you were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm usage, "
            "see https://github.com/pytorch/pytorch/pull/103001")
    y = x.detach().clone()
    y.requires_grad_(x.requires_grad)
    if x.grad is not None:
        y.grad = deepcopy(x.grad, memo)
    return y


def deepcopy(x, memo=None, _nil=[]):
    if memo is None:
        memo = {}
    key = id(x)
    y = memo.get(key, _nil)
    if y is not _nil:
        return y
    cls = type(x)
    if cls is list:
        y = []
        memo[key] = y
        for item in x:
            y.append(deepcopy(item, memo))
    elif cls is tuple:
        y = tuple(deepcopy(item, memo) for item in x)
        if all(a is b for a, b in zip(x, y)):
            y = x  # as CPython: a tuple of atoms is its own copy
    elif isinstance(x, dict):
        y = cls(x.default_factory) if hasattr(x, "default_factory") else cls()
        memo[key] = y
        for k, v in x.items():
            y[deepcopy(k, memo)] = deepcopy(v, memo)
    elif cls is set:
        y = cls(deepcopy(item, memo) for item in x)
    elif isinstance(x, torch.Tensor):
        y = _deepcopy_tensor(x, memo)
    elif hasattr(x, "__deepcopy__") and not isinstance(x, type):
        y = x.__deepcopy__(memo)
    elif _is_atomic(x) or not hasattr(x, "__dict__"):
        y = x
    else:
        y = cls.__new__(cls)
        memo[key] = y
        state = deepcopy(x.__dict__, memo)
        if hasattr(x, "__setstate__"):
            y.__setstate__(state)
        else:
            y.__dict__.update(state)
    if y is not x:
        memo[key] = y
        memo.setdefault(id(memo), []).append(x)  # keeps x alive, so its id is not reused meanwhile
    return y
