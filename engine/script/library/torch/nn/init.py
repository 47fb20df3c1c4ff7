# torch.nn.init for Fusescope scripts: fills tensors in place without recording autograd
# history, with PyTorch's gains and fans. The random draws come from Fusescope's generator,
# so the values are not PyTorch's; their distributions, bounds and shapes are.
import math
import warnings

import torch


def _fill(tensor, values):
    with torch.no_grad():
        tensor.copy_(values)
    return tensor


def calculate_gain(nonlinearity, param=None):
    linear = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field = 1
    for size in tensor.shape[2:]:
        receptive_field *= size
    return tensor.size(1) * receptive_field, tensor.size(0) * receptive_field


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ["fan_in", "fan_out"]:
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    return _fill(tensor, torch.rand(tensor.shape) * (b - a) + a)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    return _fill(tensor, torch.randn(tensor.shape) * std + mean)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """A normal draw kept within [a, b]: values outside are drawn again until none is."""
    values = torch.randn(tensor.shape) * std + mean
    outside = (values < a) | (values > b)
    while outside.any():
        values = torch.where(outside, torch.randn(tensor.shape) * std + mean, values)
        outside = (values < a) | (values > b)
    return _fill(tensor, values)


def constant_(tensor, val):
    return _fill(tensor, torch.full(tensor.shape, val))


def ones_(tensor):
    return _fill(tensor, torch.ones(tensor.shape))


def zeros_(tensor):
    return _fill(tensor, torch.zeros(tensor.shape))


def eye_(tensor):
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, torch.eye(tensor.size(0), tensor.size(1)))


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)))


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    return normal_(tensor, 0.0, std)


def orthogonal_(tensor, gain=1, generator=None):
    """A random matrix with orthonormal rows or columns (whichever are fewer), times gain: a
    normal draw orthonormalised column by column (Gram-Schmidt, twice for accuracy)."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flat = torch.randn(rows, cols)
    if rows < cols:
        flat = flat.t()
    columns = []
    for j in range(flat.size(1)):
        v = flat[:, j]
        for _ in range(2):
            for q in columns:
                v = v - (q * v).sum() * q
        columns.append(v / v.norm())
    q = torch.stack(columns, dim=1)
    if rows < cols:
        q = q.t()
    return _fill(tensor, q.reshape(tensor.shape) * gain)


def _make_deprecate(method):
    """The old names without the trailing underscore: the same fill, with PyTorch's warning."""
    new_name = method.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.", FutureWarning,
                      stacklevel=2)
        return method(*args, **kwargs)

    deprecated_init.__name__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
