# torch.amp for Fusescope scripts: autocast, as PyTorch's torch.amp.autocast_mode.autocast (a
# context manager, and a decorator running each call inside it), over the engine's state
# (torch.set_autocast_enabled/_dtype; the op policy is script/autocast.cpp), with PyTorch's
# warnings where it disables itself; the deprecated torch.cpu.amp / torch.cuda.amp forms; and
# GradScaler where it is disabled (no CUDA), passing losses and steps through unchanged.
import functools
import warnings

import torch


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if device_type not in ("cpu", "cuda"):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")
        self.device = device_type
        self.fast_dtype = torch.get_autocast_dtype(device_type) if dtype is None else dtype
        self._enabled = enabled
        if device_type == "cuda" and enabled and not torch.cuda.is_available():
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
            self._enabled = False
        supported = (torch.bfloat16, torch.float16)
        if self._enabled and self.fast_dtype not in supported:
            name = "CPU" if device_type == "cpu" else "CUDA"
            listed = "torch.bfloat16, torch.float16" if device_type == "cpu" else "torch.float16, torch.bfloat16"
            warnings.warn(f"In {name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                          f"{name} Autocast only supports dtypes of {listed} currently.", stacklevel=2)
            self._enabled = False

    def __enter__(self):
        self.prev = torch.is_autocast_enabled(self.device)
        self.prev_fastdtype = torch.get_autocast_dtype(self.device)
        torch.set_autocast_dtype(self.device, self.fast_dtype)
        torch.set_autocast_enabled(self.device, self._enabled)

    def __exit__(self, exc_type, exc_val, exc_tb):
        torch.set_autocast_enabled(self.device, self.prev)
        torch.set_autocast_dtype(self.device, self.prev_fastdtype)
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return decorate_autocast


class _DeprecatedAutocast(autocast):
    _device = "cpu"
    _default_dtype = torch.bfloat16

    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        warnings.warn(f"`torch.{self._device}.amp.autocast(args...)` is deprecated. Please use "
                      f"`torch.amp.autocast('{self._device}', args...)` instead.", FutureWarning, stacklevel=2)
        super().__init__(self._device, dtype=self._default_dtype if dtype is None else dtype, enabled=enabled,
                         cache_enabled=cache_enabled)


class cpu_autocast(_DeprecatedAutocast):
    pass


class cuda_autocast(_DeprecatedAutocast):
    _device = "cuda"
    _default_dtype = torch.float16


class GradScaler:
    def __init__(self, device="cuda", init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        if enabled and device == "cuda" and not torch.cuda.is_available():
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.", stacklevel=2)
            enabled = False
        if enabled:
            raise NotImplementedError("an enabled GradScaler is not supported by Fusescope yet (enabled=False, or no "
                                      "CUDA, passes losses and steps through)")
        self._enabled = False

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer):
        pass

    def step(self, optimizer, *args, **kwargs):
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        pass

    def get_scale(self):
        return 1.0

    def state_dict(self):
        return {}

    def load_state_dict(self, state_dict):
        pass
