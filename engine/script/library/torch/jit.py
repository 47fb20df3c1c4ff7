# torch.jit for Fusescope scripts: what model files call to stay scriptable, and which changes
# nothing when PyTorch runs them eagerly: is_scripting() and is_tracing() (False), the
# decorators ignore, unused and export (the function itself), and the Final annotation.
# TorchScript itself (script, trace, ...) is not provided: an AttributeError says so.
import typing
import warnings


def is_scripting():
    return False


def is_tracing():
    return False


def annotate(the_type, the_value):
    return the_value


def ignore(drop=False, **kwargs):
    if callable(drop):  # @torch.jit.ignore
        return drop
    if drop:  # PyTorch's words, its unfilled {} included
        warnings.warn("ignore(True) has been deprecated. TorchScript will now drop the function call on compilation. Use "
                      "torch.jit.unused now. {}", FutureWarning, stacklevel=2)
    return lambda function: function  # @torch.jit.ignore(drop=...)


def unused(function):
    return function


def export(function):
    return function


Final = typing.Final
