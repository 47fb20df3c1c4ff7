# The torch.nn.functional calls Fusescope composes from other ops, written as PyTorch's
# reference implementations are (the rest of torch.nn.functional are engine ops). Inside a
# compiled function they trace as the ops they are made of, which Inductor fuses.
import functools
import math
import warnings

import torch
from torch import _VF
from torch.nn._activations import *  # noqa: F403: its functions are torch.nn.functional's
from torch.nn._losses import *  # noqa: F403
from torch.nn._losses import _reduced as _reduce
from torch.nn._pooling import *  # noqa: F403


def _autocast_policy(to_lower_precision):
    """What autocast does to the inputs of the calls this module computes itself, as PyTorch's CPU
    autocast to the ops they stand for (script/autocast.cpp has the engine ops' policy):
    floating tensors but float64 cast to the autocast dtype (matrix products, convolutions,
    attention) or to float32 (losses, 3-d pooling)."""
    def decorate(function):
        @functools.wraps(function)
        def run(*args, **kwargs):
            if not torch.is_autocast_enabled("cpu"):
                return function(*args, **kwargs)
            dtype = torch.get_autocast_dtype("cpu") if to_lower_precision else torch.float32

            def cast(value):
                if (isinstance(value, torch.Tensor) and value.device.type == "cpu" and value.is_floating_point()
                        and value.dtype not in (torch.float64, dtype)):
                    return value.to(dtype)
                return value

            return function(*[cast(a) for a in args], **{k: cast(v) for k, v in kwargs.items()})
        return run
    return decorate


_autocast_lower_precision = _autocast_policy(True)
_autocast_float32 = _autocast_policy(False)



@_autocast_lower_precision
def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False):
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    if (attn_mask is None and dropout_p == 0.0 and not enable_gqa and query.device.type == "cpu" and query.dim() == 4
            and key.dim() == 4 and value.dim() == 4 and query.dtype in (torch.float32, torch.float64)
            and key.dtype == query.dtype and value.dtype == query.dtype and query.shape[:2] == key.shape[:2]
            and key.shape[:3] == value.shape[:3] and query.size(-1) == key.size(-1)):
        # PyTorch's CPU flash attention: one fused kernel, an extern kernel when compiled.
        return torch._scaled_dot_product_flash_attention_for_cpu(query, key, value, is_causal, scale=scale)
    target, source = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    scores = query @ key.transpose(-2, -1) * scale_factor
    if is_causal:
        causal = torch.ones(target, source, dtype=torch.bool, device=query.device).tril()
        scores = scores.masked_fill(causal.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    # As PyTorch's math attention (_safe_softmax): a query row every key is masked from
    # attends to nothing, giving zeros, not the NaN of a softmax over -inf only.
    unattended = (scores == float("-inf")).all(dim=-1, keepdim=True)
    weights = torch.softmax(scores.masked_fill(unattended, 0.0), dim=-1).masked_fill(unattended, 0.0)
    if dropout_p > 0.0:
        weights = torch.nn.functional.dropout(weights, dropout_p, True)
    return weights @ value


def _named(result, node):
    """PyTorch computes `result` as one op whose backward node is `node`; ours is the last op
    of the composite, so it takes that name (its next_functions show what it is made of)."""
    return torch.autograd._name_backward(result, node)


# The engine's dropout op, bound before torch/_composite.py makes torch.dropout a function
# that calls F.dropout below.
_engine_dropout = torch.dropout
# Engine ops the functions below call by their functional names.
linear = torch.nn.functional.linear
softmax = torch.nn.functional.softmax
_engine_relu = torch.nn.functional.relu
_engine_silu = torch.nn.functional.silu
_engine_hardswish = torch.nn.functional.hardswish


def dropout(input, p=0.5, training=True, inplace=False):
    """Where a gradient will flow: the input times a mask of the uniform draws >= p, scaled by
    1 / (1 - p), as PyTorch's CPU dropout (MulBackward0); the draws are the engine op's, in
    its order, so the values are the same either way. Else the engine op (the input itself
    when not training)."""
    gradient = torch.is_grad_enabled() and (input.requires_grad or torch.compiler.is_compiling())
    if training and p == 1.0 and not inplace and gradient:
        return input * torch.zeros_like(input)  # PyTorch's: nothing drawn
    if training and 0.0 < p < 1.0 and not inplace and gradient:
        keep = torch.rand(input.shape, dtype=torch.float64, device=input.device) >= p
        return _named(input * keep * (1.0 / (1.0 - p)), "MulBackward0")
    return _engine_dropout(input, p, training, inplace)


def _deprecated_rank(name, dims, got):
    warnings.warn(f"{name}: Received a {got}-D input to {name}, which is deprecated and will result in an error in a future "
                  f"release. To retain the behavior and silence this warning, please use dropout instead. Note that {name} "
                  f"exists to provide channel-wise dropout on inputs with {dims} spatial dimensions, a channel dimension, and "
                  f"an optional batch dimension (i.e. {dims + 1}D or {dims + 2}D inputs).", stacklevel=3)


def _check_probability(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


# Channel dropout calls _VF.feature_dropout on lines written as PyTorch's: Dynamo runs these
# functions whole on fake tensors, and a float p that changed between calls is read as a number
# by that op, where PyTorch's guard on it says it was made (nn/functional.py:1629 in dropout2d).
# An unbatched input is a batch of one as a view, so an in-place dropout writes the input.
def dropout1d(input, p=0.5, training=True, inplace=False):
    _check_probability(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that dropout1d "
                           "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, "
                           "and an optional batch dimension (i.e. 2D or 3D inputs).")
    is_batched = input.dim() == 3
    if not is_batched:
        input = input.unsqueeze(0)

    result = (
        _VF.feature_dropout_(input, p, training)
        if inplace
        else _VF.feature_dropout(input, p, training)
    )

    return result if is_batched else result.squeeze(0)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """PyTorch's: a 3-D input is (N, C, L), not an unbatched (C, H, W), with a warning."""
    _check_probability(p)
    if input.dim() not in (3, 4):
        _deprecated_rank("dropout2d", 2, input.dim())
    if input.dim() == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is "
                      "desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will "
                      "change in a future release to interpret the input as one without a batch dimension, i.e. shape "
                      "(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d "
                      "instead.", stacklevel=2)

    result = (
        _VF.feature_dropout_(input, p, training)
        if inplace
        else _VF.feature_dropout(input, p, training)
    )

    return result


def dropout3d(input, p=0.5, training=True, inplace=False):
    _check_probability(p)
    if input.dim() not in (4, 5):
        _deprecated_rank("dropout3d", 3, input.dim())
    is_batched = input.dim() == 5
    if not is_batched:
        input = input.unsqueeze(0)

    result = (
        _VF.feature_dropout_(input, p, training)
        if inplace
        else _VF.feature_dropout(input, p, training)
    )

    return result if is_batched else result.squeeze(0)


def relu(input, inplace=False):
    return torch.relu_(input) if inplace else _engine_relu(input)


def silu(input, inplace=False):
    return input.copy_(_engine_silu(input)) if inplace else _engine_silu(input)


def hardswish(input, inplace=False):
    return input.copy_(_engine_hardswish(input)) if inplace else _engine_hardswish(input)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clamped to [min_val, max_val]; the gradient passes strictly inside only (PyTorch's
    hardtanh_backward), where clamp's passes at the bounds too."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if input.dtype == torch.bool:
        raise NotImplementedError("Bool inputs not supported for hardtanh")
    inside = (input > min_val) & (input < max_val)
    result = torch.where(inside, input, input.detach().clamp(min_val, max_val))
    if inplace:
        return _named(input.copy_(result), "HardtanhBackward1")
    return _named(result, "HardtanhBackward0")


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


@_autocast_float32
def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    # Class scores along dim 1 (dim 0 for a single sample); targets are class indices.
    single = input.dim() == 1
    if single:
        input, target = input.unsqueeze(0), target.unsqueeze(0)
    valid = target != ignore_index
    safe = target.masked_fill(valid.logical_not(), 0)
    picked = -input.gather(1, safe.unsqueeze(1)).squeeze(1)
    weights = valid.to(input.dtype)
    if weight is not None:
        weights = weights * weight.index_select(0, safe.reshape(-1)).reshape(safe.shape)
    loss = picked * weights
    if reduction == "mean":
        loss = loss.sum() / weights.sum()
    elif single and reduction == "none":
        loss = loss.squeeze(0)
    else:
        loss = _reduce(loss, reduction)
    return _named(loss, "NllLossBackward0")


@_autocast_float32
def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    class_dim = 0 if input.dim() == 1 else 1
    log_probs = torch.log_softmax(input, dim=class_dim)
    if target.dtype.is_floating_point:  # class probabilities, the shape of the input
        if weight is not None:
            log_probs = log_probs * weight.reshape([-1] + [1] * (input.dim() - class_dim - 1))
        if label_smoothing > 0.0:
            target = target * (1.0 - label_smoothing) + label_smoothing / input.shape[class_dim]
        loss = -(target * log_probs).sum(class_dim)
        if reduction == "mean" and input.dim() > 1:
            return loss.sum() / input.shape[0]
        return _reduce(loss, reduction)
    loss = nll_loss(log_probs, target, weight, None, ignore_index, None, reduction)
    if label_smoothing == 0.0:
        return loss
    if weight is not None:
        raise NotImplementedError("cross_entropy with both weight and label_smoothing is not supported by Fusescope yet")
    # Each kept sample also takes the mean of -log p over the classes, weighted by the smoothing.
    valid = (target != ignore_index).to(input.dtype)
    if input.dim() == 1:
        valid = valid.unsqueeze(0)
        log_probs = log_probs.unsqueeze(0)
    smooth = -log_probs.mean(1) * valid
    if reduction == "mean":
        smooth = smooth.sum() / valid.sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    elif input.dim() == 1:
        smooth = smooth.squeeze(0)
    return loss * (1.0 - label_smoothing) + smooth * label_smoothing


@_autocast_float32
def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _named(_reduce((input - target) ** 2, reduction), "MseLossBackward0")


@_autocast_float32
def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    """-w [p t log s(x) + (1 - t) log(1 - s(x))], with p = pos_weight, computed stably as
    PyTorch does: (1 - t) x + (1 + (p - 1) t) (log1p(exp(-|x|)) + max(-x, 0)). Its gradients
    are PyTorch's formulas (input: (1 + (p - 1) t) s(x) - p t; target: (p - 1) softplus(-x) - x),
    attached to the value as `value + (x - x.detach()) * dx` (exactly the value, since the
    difference is 0), not the derivative of the stable form, which is wrong at x = 0."""
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    softplus_neg = torch.log1p(torch.exp(-input.abs())) + (-input).clamp(min=0)
    log_weight = 1 if pos_weight is None else 1 + (pos_weight - 1) * target
    with torch.no_grad():
        value = (1 - target) * input + log_weight * softplus_neg
        d_input = log_weight * torch.sigmoid(input) - pos_weight * target if pos_weight is not None else torch.sigmoid(input) - target
        d_target = (pos_weight - 1) * softplus_neg - input if pos_weight is not None else -input
    loss = value + (input - input.detach()) * d_input + (target - target.detach()) * d_target
    if weight is not None:
        loss = loss * weight
    return _named(_reduce(loss, reduction), "BinaryCrossEntropyWithLogitsBackward0")


def leaky_relu(input, negative_slope=0.01, inplace=False):
    if inplace:
        raise NotImplementedError("F.leaky_relu(inplace=True) is not supported by Fusescope yet")
    return _named(torch.where(input > 0, input, input * negative_slope), "LeakyReluBackward0")


def elu(input, alpha=1.0, inplace=False):
    if inplace:
        raise NotImplementedError("F.elu(inplace=True) is not supported by Fusescope yet")
    return _named(torch.where(input > 0, input, torch.expm1(input) * alpha), "EluBackward0")


@_autocast_float32
def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _reduce((input - target).abs(), reduction)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        raise NotImplementedError("F.embedding(max_norm=...) renormalises the weight in place, which Fusescope does not do yet")
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05):
    """Batch statistics over every dim but the channels (dim 1) when training, else the running ones."""
    if input.numel() == 0:  # as ATen: a copy, still in the autograd graph of weight and bias
        y = input.clone()
        for t in (weight, bias):
            if t is not None:
                y = y + t.sum() * 0
        return y
    channels = input.size(1)
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
    dims = [0] + list(range(2, input.dim()))
    shape = [1, -1] + [1] * (input.dim() - 2)
    if training:
        count = input.numel() // input.size(1)
        if count <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.size()}")
        mean = input.mean(dims)
        var = input.var(dims, unbiased=False)
        if running_mean is not None:
            with torch.no_grad():  # the running variance is the unbiased one
                running_mean.copy_(running_mean * (1 - momentum) + mean * momentum)
                running_var.copy_(running_var * (1 - momentum) + var * (count / (count - 1)) * momentum)
    else:
        mean, var = running_mean, running_var
    y = (input - mean.reshape(shape)) * torch.rsqrt(var.reshape(shape) + eps)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return _named(y, "NativeBatchNormBackward0")


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, momentum=0.1,
                  eps=1e-05):
    """Each sample's channels normalised over their own positions: batch norm of the input
    seen as one sample of N*C channels, as PyTorch computes it; running statistics, when
    kept, take the batch's average."""
    n, c = input.size(0), input.size(1)
    if running_mean is not None and running_mean.numel() != c:
        raise RuntimeError(f"running_mean should contain {c} elements not {running_mean.numel()}")
    if use_input_stats and input.numel() // (n * c) <= 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {input.size()}")
    tiled = [None if t is None else t.repeat(n) for t in (running_mean, running_var, weight, bias)]
    y = batch_norm(input.reshape([1, n * c] + list(input.shape[2:])), tiled[0], tiled[1], tiled[2], tiled[3],
                   use_input_stats, momentum, eps)
    if use_input_stats and running_mean is not None:
        with torch.no_grad():
            running_mean.copy_(tiled[0].reshape(n, c).mean(0))
            running_var.copy_(tiled[1].reshape(n, c).mean(0))
    return y.reshape(input.shape)


def pixel_shuffle(input, upscale_factor):
    """(*, C*r*r, H, W) to (*, C, H*r, W*r): each group of r*r channels spread over an r-by-r block."""
    r = upscale_factor
    if input.dim() < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with {input.dim()} "
                           f"dimension(s)")
    *batch, channels, height, width = input.shape
    if channels % (r * r) != 0:
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={channels} is not divisible by {r * r}")
    blocks = input.reshape(batch + [channels // (r * r), r, r, height, width])
    k = len(batch)
    order = list(range(k)) + [k, k + 3, k + 1, k + 4, k + 2]
    return blocks.permute(order).reshape(batch + [channels // (r * r), height * r, width * r])


def pixel_unshuffle(input, downscale_factor):
    """pixel_shuffle undone: (*, C, H*r, W*r) to (*, C*r*r, H, W)."""
    r = downscale_factor
    *batch, channels, height, width = input.shape
    if height % r != 0 or width % r != 0:
        raise RuntimeError(f"pixel_unshuffle expects height and width to be divisible by downscale_factor, but input has "
                           f"height {height} and width {width} and downscale_factor {r}")
    blocks = input.reshape(batch + [channels, height // r, r, width // r, r])
    k = len(batch)
    order = list(range(k)) + [k, k + 2, k + 4, k + 1, k + 3]
    return blocks.permute(order).reshape(batch + [channels * r * r, height // r, width // r])


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    if input.size(1) % num_groups != 0:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of shape "
                           f"{list(input.shape)} and num_groups={num_groups}")
    grouped = input.reshape(input.size(0), num_groups, input.numel() // max(input.size(0) * num_groups, 1))  # -1 is ambiguous for an empty batch
    mean = grouped.mean(-1, keepdim=True)
    var = grouped.var(-1, unbiased=False, keepdim=True)
    y = ((grouped - mean) * torch.rsqrt(var + eps)).reshape(input.shape)
    shape = [1, -1] + [1] * (input.dim() - 2)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return _named(y, "NativeGroupNormBackward0")


def _positions(input, dim, before, after, mode):
    """The input positions each output position of a padded dim reads (clamped into range)."""
    size = input.size(dim)
    index = torch.arange(-before, size + after, device=input.device)
    if mode == "reflect":
        return (size - 1) - ((size - 1) - index.abs()).abs()
    if mode == "circular":
        return index.remainder(size)
    return index.clamp(0, size - 1)


def has_torch_function_unary(input):
    """Whether `input` overrides torch functions (__torch_function__): Fusescope's tensors do not."""
    return False


def pad(input, pad, mode="constant", value=None):
    # Written as PyTorch's (which Dynamo inlines: its guards and stacks name these lines);
    # torch._C._nn.pad computes it.
    if has_torch_function_unary(input):
        raise NotImplementedError("__torch_function__ overrides are not supported by Fusescope")
    if not torch.jit.is_scripting():
        if torch.are_deterministic_algorithms_enabled() and (
            input.is_cuda or input.is_xpu
        ):
            pass  # PyTorch's replicate padding is nondeterministic on a GPU; Fusescope's is not
    return torch._C._nn.pad(input, pad, mode, value)


def _pad(input, pad, mode="constant", value=None):
    """torch._C._nn.pad: pads (or, with negative amounts, crops) the last len(pad) // 2 dims,
    last dim first. Each padded dim is one index_select of the positions it reads, so a
    compiled function traces loads at computed positions, which Inductor fuses."""
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but got padding "
                           f"length {len(pad)} and input of dimension {input.dim()}")
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant":
        if len(pad) not in (2, 4, 6) or input.dim() not in (len(pad) // 2 + 1, len(pad) // 2 + 2):
            raise NotImplementedError(
                f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
                "Supported combinations for non-constant padding:\n"
                "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    out = input
    for i in range(len(pad) // 2):
        dim = input.dim() - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        size = input.size(dim)
        if mode == "reflect" and (before >= size or after >= size):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input dimension, but got: "
                               f"padding ({before}, {after}) at dimension {dim} of input {list(input.shape)}")
        if mode == "circular" and (before > size or after > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if before == 0 and after == 0:
            continue
        if mode == "constant" and size == 0:  # nothing to read: all of it is the fill
            shape = list(out.shape)
            shape[dim] = max(0, before + after)
            out = torch.full(shape, 0.0 if value is None else value, dtype=out.dtype, device=out.device)
            continue
        out = out.index_select(dim, _positions(input, dim, before, after, mode))
        if mode == "constant":
            index = torch.arange(-before, size + after, device=input.device)
            outside = ((index < 0) | (index >= size)).reshape([-1] + [1] * (input.dim() - 1 - dim))
            out = out.masked_fill(outside, 0.0 if value is None else value)
    names = {"constant": "ConstantPadNdBackward0", "reflect": "ReflectionPad{}DBackward0", "replicate": "ReplicationPad{}DBackward0"}
    return _named(out, names[mode].format(len(pad) // 2)) if mode in names else out


def _zeros_between(input, dim, stride):
    """`input` with stride - 1 zeros between neighbours along `dim`."""
    if stride == 1 or input.size(dim) <= 1:
        return input
    index = torch.arange((input.size(dim) - 1) * stride + 1, device=input.device)
    spread = input.index_select(dim, index // stride)
    between = (index % stride != 0).reshape([-1] + [1] * (input.dim() - 1 - dim))
    return spread.masked_fill(between, 0.0)


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, dims):
    """The transposed convolution as PyTorch defines it, computed as a convolution: the input
    with stride - 1 zeros between its elements, padded by the kernel's reach less `padding`
    (plus output_padding at the end), convolved with each group's kernels flipped and their in
    and out channels swapped, at stride 1."""
    name = f"conv_transpose{dims}d"
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got input of "
                           f"size: {list(input.shape)}")
    batched = input.dim() == dims + 2
    x = input if batched else input.unsqueeze(0)
    stride, padding, output_padding, dilation = (_spatial(v, dims) for v in (stride, padding, output_padding, dilation))
    if any(output_padding[i] >= max(stride[i], dilation[i]) for i in range(dims)):
        # PyTorch's message, a 1-D convolution's as a 2-D one of height 1.
        plane = [(0, 1, 1)] * (2 - dims) + list(zip(output_padding, stride, dilation))
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got " + " ".join(
            f"{what}_{side}: {plane[d][k]}" for k, what in enumerate(("output_padding", "stride", "dilation"))
            for d, side in enumerate(("height", "width"))))
    channels, out_per_group, kernel = weight.size(0), weight.size(1), tuple(weight.shape[2:])
    if x.size(1) != channels:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected input{list(x.shape)} to have "
                           f"{channels} channels, but got {x.size(1)} channels instead")
    pads = []
    for i in range(dims):
        x = _zeros_between(x, 2 + i, stride[i])
        reach = dilation[i] * (kernel[i] - 1)
        pads = [reach - padding[i], reach - padding[i] + output_padding[i]] + pads  # F.pad's order: last dim first
    x = pad(x, pads)
    w = weight.reshape((groups, channels // groups, out_per_group) + kernel).transpose(1, 2)
    w = w.reshape((groups * out_per_group, channels // groups) + kernel).flip(list(range(2, 2 + dims)))
    convolve = torch.nn.functional.conv2d if dims == 2 else torch.nn.functional.conv1d
    out = convolve(x, w, bias, 1, 0, dilation, groups)
    return _named(out if batched else out.squeeze(0), "ConvolutionBackward0")


def _spatial(value, dims):
    """An int made a tuple of one per spatial dim; a list or tuple as it is (nn.py's too)."""
    return tuple(value) if isinstance(value, (list, tuple)) else (value,) * dims


def adaptive_avg_pool2d(input, output_size):
    """output_size's None keeps that dim's input size, as PyTorch's."""
    sizes = _spatial(output_size, 2)
    return torch.adaptive_avg_pool2d(input, [input.size(i - 2) if v is None else v for i, v in enumerate(sizes)])


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """With return_indices, also where each maximum was: its flat place in its input plane (the
    first of equal ones, NaN counted largest), as PyTorch's."""
    stride = [] if stride is None else stride
    values = torch.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)
    if not return_indices:
        return values
    return values, _max_pool_indices(input, values, _spatial(kernel_size, 2), _spatial(stride or kernel_size, 2),
                                     _spatial(padding, 2), _spatial(dilation, 2))


def _max_pool_indices(input, values, kernel, stride, padding, dilation):
    oh, ow = values.size(-2), values.size(-1)
    height, width = input.size(-2), input.size(-1)
    reach = [dilation[i] * (kernel[i] - 1) + 1 for i in range(2)]
    extra = [max(0, (o - 1) * stride[i] + reach[i] - (n + 2 * padding[i])) for i, (o, n) in enumerate(((oh, height), (ow, width)))]
    x = torch.nn.functional.pad(input, (padding[1], padding[1] + extra[1], padding[0], padding[0] + extra[0]), value=float("-inf"))
    windows = x.unfold(-2, reach[0], stride[0]).unfold(-2, reach[1], stride[1])[..., ::dilation[0], ::dilation[1]]
    windows = windows[..., :oh, :ow, :, :]
    picked = windows.reshape(list(windows.shape[:-2]) + [kernel[0] * kernel[1]]).argmax(-1)
    rows = torch.arange(oh).reshape(oh, 1) * stride[0] - padding[0] + (picked // kernel[1]) * dilation[0]
    cols = torch.arange(ow) * stride[1] - padding[1] + (picked % kernel[1]) * dilation[1]
    return rows * width + cols


def _numeric_padding(input, weight, padding, stride, dilation, dims):
    """A string padding as numbers: 'valid' none, 'same' half the kernel's reach on each side
    (stride 1 only); where 'same' needs one more on one side, the input is padded there
    (after, as PyTorch pads)."""
    if not isinstance(padding, str):
        return input, padding
    if padding == "valid":
        return input, 0
    if padding != "same":
        raise ValueError(f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}")
    if any(s != 1 for s in _spatial(stride, dims)):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (weight.size(2 + i) - 1) for i, d in enumerate(_spatial(dilation, dims))]
    if all(t % 2 == 0 for t in total):
        return input, [t // 2 for t in total]
    pads = []
    for t in reversed(total):
        pads += [t // 2, t - t // 2]
    return torch.nn.functional.pad(input, pads), 0


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    input, padding = _numeric_padding(input, weight, padding, stride, dilation, 1)
    return torch.conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    input, padding = _numeric_padding(input, weight, padding, stride, dilation, 2)
    return torch.conv2d(input, weight, bias, stride, padding, dilation, groups)


@_autocast_lower_precision
def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)


@_autocast_lower_precision
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)


# ---- 3-D convolution and pooling, as 2-D ones over the depth slices ----------------------------


def _batched_volume(input, name):
    """(N, C, D, H, W), with a batch of one for an unbatched (C, D, H, W) input."""
    if input.dim() not in (4, 5):
        raise RuntimeError(f"Expected 4D (unbatched) or 5D (batched) input to {name}, but got input of size: "
                           f"{list(input.shape)}")
    return input if input.dim() == 5 else input.unsqueeze(0)


def _depth_windows(volume, kernel, stride, padding, dilation, fill):
    """For each kernel depth k, the input's depth slices that offset k of every output depth
    reads, as one (N, D_out, C, H, W) tensor each; the depth padded with `fill`."""
    padded = pad(volume, [0, 0, 0, 0, padding, padding], value=fill) if padding else volume
    depth = (padded.size(2) - dilation * (kernel - 1) - 1) // stride + 1
    if depth <= 0:
        raise RuntimeError(f"Output size is too small (the depth {volume.size(2)} after padding is smaller than the "
                           f"kernel's {dilation * (kernel - 1) + 1})")
    starts = torch.arange(depth, device=volume.device) * stride
    return [padded.index_select(2, starts + k * dilation).transpose(1, 2) for k in range(kernel)]


def _as_planes(windows):
    """(N, D, C, H, W) as a batch of N * D planes."""
    return windows.reshape((windows.size(0) * windows.size(1),) + tuple(windows.shape[2:]))


def _as_volume(planes, windows):
    """A batch of N * D planes (N * D, C, H, W), made from windows (N, D, ...), as (N, C, D, H, W)."""
    return planes.reshape((windows.size(0), windows.size(1)) + tuple(planes.shape[1:])).transpose(1, 2)


@_autocast_lower_precision
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Each kernel depth's 2-D convolution over the depth slices it reads, summed."""
    input, padding = _numeric_padding(input, weight, padding, stride, dilation, 3)
    volume = _batched_volume(input, "conv3d")
    stride, padding, dilation = (_spatial(v, 3) for v in (stride, padding, dilation))
    if volume.size(1) != weight.size(1) * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, expected input{list(volume.shape)} "
                           f"to have {weight.size(1) * groups} channels, but got {volume.size(1)} channels instead")
    windows = _depth_windows(volume, weight.size(2), stride[0], padding[0], dilation[0], 0.0)
    out = None
    for k, window in enumerate(windows):
        plane = torch.nn.functional.conv2d(_as_planes(window), weight[:, :, k], None, stride[1:], padding[1:], dilation[1:],
                                           groups)
        out = plane if out is None else out + plane
    out = _as_volume(out, windows[0])
    if bias is not None:
        out = out + bias.reshape(-1, 1, 1, 1)
    return _named(out if input.dim() == 5 else out.squeeze(0), "ConvolutionBackward0")


@_autocast_float32
def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    if ceil_mode or return_indices:
        raise NotImplementedError("max_pool3d(ceil_mode=True or return_indices=True) is not supported by Fusescope yet")
    volume = _batched_volume(input, "max_pool3d")
    kernel = _spatial(kernel_size, 3)
    stride = kernel if stride is None or stride == [] else _spatial(stride, 3)
    padding, dilation = _spatial(padding, 3), _spatial(dilation, 3)
    if padding[0] * 2 > kernel[0]:
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={padding[0]}, "
                           f"kernel_size={kernel[0]} and dilation={dilation[0]}")
    windows = _depth_windows(volume, kernel[0], stride[0], padding[0], dilation[0], float("-inf"))
    deepest = torch.stack(windows).amax(0)
    out = torch.nn.functional.max_pool2d(_as_planes(deepest), kernel[1:], stride[1:], padding[1:], dilation[1:])
    out = _as_volume(out, deepest)
    return out if input.dim() == 5 else out.squeeze(0)


@_autocast_float32
def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
    kernel = _spatial(kernel_size, 3)
    stride = kernel if stride is None or stride == [] else _spatial(stride, 3)
    padding = _spatial(padding, 3)
    if ceil_mode or divisor_override is not None or (padding[0] and not count_include_pad):
        raise NotImplementedError("avg_pool3d(ceil_mode, divisor_override, or depth padding not counted) is not supported "
                                  "by Fusescope yet")
    volume = _batched_volume(input, "avg_pool3d")
    windows = _depth_windows(volume, kernel[0], stride[0], padding[0], 1, 0.0)
    mean_depth = torch.stack(windows).mean(0)
    out = torch.nn.functional.avg_pool2d(_as_planes(mean_depth), kernel[1:], stride[1:], padding[1:],
                                         count_include_pad=count_include_pad)
    out = _as_volume(out, mean_depth)
    return out if input.dim() == 5 else out.squeeze(0)


@_autocast_float32
def adaptive_avg_pool3d(input, output_size):
    """Output depth i averages depths floor(i D / d) to ceil((i + 1) D / d), then each plane
    is pooled adaptively in 2-D."""
    volume = _batched_volume(input, "adaptive_avg_pool3d")
    sizes = [volume.size(2 + i) if size is None else size for i, size in enumerate(_spatial(output_size, 3))]
    depth = volume.size(2)
    slices = [volume[:, :, (i * depth) // sizes[0]:-((-(i + 1) * depth) // sizes[0])].mean(2) for i in range(sizes[0])]
    planes = torch.stack(slices, 1)
    out = torch.nn.functional.adaptive_avg_pool2d(_as_planes(planes), sizes[1:])
    out = _as_volume(out, planes)
    return out if input.dim() == 5 else out.squeeze(0)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None,
                antialias=False):
    """Resizing of the spatial dims (all after the first two), one dim after another, each
    reading its source positions by index_select (compiled: loads at computed positions):
    'nearest' reads floor(out_index * scale) (in float32; scale = in / out, or 1 / scale_factor
    when given and not recomputed); 'linear'/'bilinear'/'trilinear' blend the two neighbours
    of PyTorch's source position ((out_index + 0.5) * scale - 0.5, at least 0, or
    out_index * (in - 1) / (out - 1) with align_corners)."""
    spatial = input.dim() - 2
    linear = {"linear": 1, "bilinear": 2, "trilinear": 3}
    if mode not in linear and mode != "bicubic" and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear")
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if size is not None:
        sizes = list(size) if isinstance(size, (list, tuple)) else [size] * spatial
        if len(sizes) != spatial:
            raise ValueError(f"Input and output must have the same number of spatial dimensions, but got input with spatial "
                             f"dimensions of {list(input.shape[2:])} and output size of {size}. Please provide input tensor in "
                             f"(N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
    else:
        factors = list(scale_factor) if isinstance(scale_factor, (list, tuple)) else [scale_factor] * spatial
        if len(factors) != spatial:
            raise ValueError(f"Input and scale_factor must have the same number of spatial dimensions, but got input with "
                             f"spatial dimensions of {list(input.shape[2:])} and scale_factor of shape {scale_factor}. Please "
                             f"provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
    if mode in linear and linear[mode] != spatial and 1 <= spatial <= 3:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {linear[mode] + 2}D input")
    if not 1 <= spatial <= 3:
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the modes: "
                                  f"nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got {mode})")
    if mode not in ("nearest", "nearest-exact", "area") and mode not in linear:
        raise NotImplementedError(f"F.interpolate(mode='{mode}') is not supported in Fusescope scripts yet (only 'nearest', "
                                  f"'nearest-exact', 'area', 'linear', 'bilinear' and 'trilinear')")
    if size is None:
        # PyTorch's kernel takes the scaled sizes as int64: past its range (or NaN) is its error, not Python's.
        scaled = [input.size(2 + i) * float(f) for i, f in enumerate(factors)]
        if not all(-9.223372036854775808e18 <= s < 9.223372036854775808e18 for s in scaled):
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        sizes = [math.floor(s) for s in scaled]
    if any(s <= 0 for s in sizes):
        names = ["D", "H", "W"][3 - spatial:]
        def shown(values):
            return ", ".join(f"{name}: {value}" for name, value in zip(names, values))
        joiner = " and" if spatial == 1 else ""
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({shown(input.shape[2:])}){joiner} "
                           f"output ({shown(sizes)})")
    if mode == "area":  # the mean of each output's share of the input: an adaptive average pool
        pool = [torch.nn.functional.adaptive_avg_pool1d, torch.nn.functional.adaptive_avg_pool2d,
                torch.nn.functional.adaptive_avg_pool3d][spatial - 1]
        return pool(input, sizes if spatial > 1 else sizes[0])
    scales = [None] * spatial if size is not None or recompute_scale_factor else [1.0 / float(f) for f in factors]
    out = input
    for i in range(spatial):
        dim, before = 2 + i, input.size(2 + i)
        if mode in ("nearest", "nearest-exact"):
            # nearest reads floor(i * scale); nearest-exact floor((i + 0.5) * scale), the centres' nearest
            scale = scales[i] if scales[i] is not None else before / sizes[i]
            shift = 0.5 if mode == "nearest-exact" else 0.0
            position = (torch.arange(sizes[i], dtype=torch.float32, device=input.device) + shift) * scale
            out = out.index_select(dim, position.floor().long().clamp(max=before - 1))
        else:
            out = _linear_resize(out, dim, sizes[i], scales[i], align_corners)
    return out


def _linear_resize(input, dim, size, scale, align_corners):
    """One dim of a linear-family interpolate: each output blends its source position's two
    neighbours (the same one at the last), weights in the input's precision."""
    before = input.size(dim)
    position = torch.arange(size, dtype=input.dtype, device=input.device)
    if align_corners:
        position = position * ((before - 1) / (size - 1) if size > 1 else 0.0)
    else:
        position = ((position + 0.5) * (scale if scale is not None else before / size) - 0.5).clamp(min=0)
    low = position.floor().long().clamp(max=before - 1)
    high = (low + 1).clamp(max=before - 1)
    weight = (position - low).reshape([size] + [1] * (input.dim() - 1 - dim))
    return input.index_select(dim, low) * (1 - weight) + input.index_select(dim, high) * weight


def one_hot(tensor, num_classes=-1):
    # int64, a trailing dim of num_classes (the largest index + 1 when not given)
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes < 0:
        num_classes = int(tensor.max()) + 1
    return (tensor.unsqueeze(-1) == torch.arange(num_classes, device=tensor.device)).long()


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask as the additive float mask it stands for (-inf where True); float masks as given."""
    if mask is None:
        return None
    if mask.dtype != torch.bool and not torch.is_floating_point(mask):
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        import warnings
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both instead.",
                      stacklevel=3)
    if mask.dtype == torch.bool:
        mask = torch.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _none_or_dtype(input):
    return None if input is None else input.dtype


def _in_projection_packed(q, k, v, w, b=None):
    embed = q.size(-1)
    if k is v and q is k:  # self-attention: one product, then q, k, v from it
        projected = linear(q, w, b).unflatten(-1, (3, embed)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return projected[0], projected[1], projected[2]
    if k is v:  # encoder-decoder attention: q from one input, k and v from the other
        w_q, w_kv = w.split([embed, embed * 2])
        b_q, b_kv = (None, None) if b is None else b.split([embed, embed * 2])
        kv = linear(k, w_kv, b_kv).unflatten(-1, (2, embed)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k,
                                 bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None, use_separate_proj_weight=False,
                                 q_proj_weight=None, k_proj_weight=None, v_proj_weight=None, static_k=None, static_v=None,
                                 average_attn_weights=True, is_causal=False):
    """Attention over (L, N, E) inputs (or unbatched (L, E)) as PyTorch computes it: the weights
    explicitly (baddbmm, softmax) when they are returned, else scaled_dot_product_attention."""
    batched = query.dim() == 3
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask",
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
                           "`generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # scaled_dot_product_attention applies the causal mask itself
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if not use_separate_proj_weight:
        if key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = linear(query, q_proj_weight, b_q), linear(key, k_proj_weight, b_k), linear(value, v_proj_weight, b_v)
    src_len = key.shape[0]
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be {(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:
        k = torch.cat([k, bias_k.repeat(1, bsz, 1)])
        v = torch.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_k is None else static_k
    v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_v is None else static_v
    if add_zero_attn:
        zeros = torch.zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype, device=k.device)
        k = torch.cat([k, zeros], dim=1)
        v = torch.cat([v, zeros], dim=1)
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise AssertionError(f"expecting key_padding_mask shape of {(bsz, src_len)}, but got {key_padding_mask.shape}")
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.shape[2]))
        if attn_mask is not None:
            weights = torch.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = torch.bmm(q_scaled, k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        output = torch.bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        output = linear(output, out_proj_weight, out_proj_bias).view(tgt_len, bsz, -1)
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            output, weights = output.squeeze(1), weights.squeeze(0)
        return output, weights
    if attn_mask is not None:
        attn_mask = attn_mask.unsqueeze(0) if attn_mask.size(0) == 1 and attn_mask.dim() == 3 else attn_mask.view(
            bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    output = output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    output = linear(output, out_proj_weight, out_proj_bias).view(tgt_len, bsz, -1)
    if not batched:
        output = output.squeeze(1)
    return output, None
