# The torch.nn.functional calls Fusescope composes from other ops, written as PyTorch's
# reference implementations are (the rest of torch.nn.functional are engine ops). Inside a
# compiled function they trace as the ops they are made of, which Inductor fuses.
import math

import torch


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False):
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    target, source = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    scores = query @ key.transpose(-2, -1) * scale_factor
    if is_causal:
        causal = torch.ones(target, source, dtype=torch.bool).tril()
        scores = scores.masked_fill(causal.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    weights = torch.softmax(scores, dim=-1)
    if dropout_p > 0.0:
        weights = torch.nn.functional.dropout(weights, dropout_p, True)
    return weights @ value


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _reduce((input - target) ** 2, reduction)


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
    return y


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    if input.size(1) % num_groups != 0:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of shape "
                           f"{list(input.shape)} and num_groups={num_groups}")
    grouped = input.reshape(input.size(0), num_groups, -1)
    mean = grouped.mean(-1, keepdim=True)
    var = grouped.var(-1, unbiased=False, keepdim=True)
    y = ((grouped - mean) * torch.rsqrt(var + eps)).reshape(input.shape)
    shape = [1, -1] + [1] * (input.dim() - 2)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y
