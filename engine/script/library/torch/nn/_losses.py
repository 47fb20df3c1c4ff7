# torch.nn.functional's losses that are arithmetic on other ops, as PyTorch documents them
# (torch.nn.functional imports them all).
import math

import torch


def _reduced(loss, reduction):
    """The loss's 'mean', 'sum' or 'none' (torch.nn.functional's losses use it too)."""
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _same_size(input, target, name):
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size ({input.size()}) "
                         "is deprecated. Please ensure they have the same size.")


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    d = (input - target).abs()
    if beta == 0:
        return _reduced(d, reduction)
    return _reduced(torch.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    d = (input - target).abs()
    loss = torch.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))
    return _reduced(loss if weight is None else loss * weight, reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if log_target:
        loss = torch.exp(target) * (target - input)
    else:
        loss = torch.xlogy(target, target) - target * input
    if reduction == "batchmean":
        return loss.sum() / input.size(0) if input.dim() else loss.sum()
    return _reduced(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _reduced(torch.log1p(torch.exp(-target * input)), reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    return _reduced(torch.clamp(-target * (input1 - input2) + margin, min=0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    zeros = torch.zeros_like(input)
    margin_part = torch.where(target != 1, torch.clamp(margin - input, min=0), zeros)
    self_part = torch.where(target != -1, input, zeros)
    return _reduced(margin_part + self_part, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-08, reduce=None, reduction="mean"):
    loss = torch.exp(input) - target * input if log_input else input - target * torch.log(input + eps)
    if full:
        stirling = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
        loss = loss + torch.where(target > 1, stirling, torch.zeros_like(stirling))
    return _reduced(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-06, reduction="mean"):
    if var.dim() == input.dim() - 1 and input.size()[:-1] == var.size():
        var = var.unsqueeze(-1)
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    _same_size(input, target, "binary_cross_entropy")
    loss = -(target * torch.clamp(torch.log(input), min=-100) + (1 - target) * torch.clamp(torch.log(1 - input), min=-100))
    return _reduced(loss if weight is None else loss * weight, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    logsig = torch.nn.functional.logsigmoid
    loss = -(target * logsig(input) + (1 - target) * logsig(-input))
    if weight is not None:
        loss = loss * weight
    loss = loss.sum(-1) / input.size(-1) if input.dim() else loss
    return _reduced(loss, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    eps = 1e-12
    dot = (input1 * input2).sum(-1)
    mag = ((input1 * input1).sum(-1) + eps) * ((input2 * input2).sum(-1) + eps)
    cos = dot / mag.sqrt()
    zeros = torch.zeros_like(cos)
    loss = torch.where(target == 1, 1 - cos, zeros) + torch.where(target == -1, torch.clamp(cos - margin, min=0), zeros)
    return _reduced(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, size_average=None, reduce=None,
                        reduction="mean"):
    distance = torch.nn.functional.pairwise_distance
    d_pos = distance(anchor, positive, p, eps)
    d_neg = distance(anchor, negative, p, eps)
    if swap:
        d_neg = torch.minimum(d_neg, distance(positive, negative, p, eps))
    return _reduced(torch.clamp(margin + d_pos - d_neg, min=0), reduction)
