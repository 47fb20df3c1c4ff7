# torch.nn.functional's 1-d pools as their 2-d forms over a height of 1, and unfold (im2col)
# as Tensor.unfold windows (torch.nn.functional imports them all).
import torch


def _single(value):
    return value[0] if isinstance(value, (list, tuple)) else value


def _planes(input):
    """(N, C, L) or (C, L) as (N, C, 1, L); the function that undoes it."""
    if input.dim() == 2:
        return input.unsqueeze(0).unsqueeze(2), lambda out: out.squeeze(2).squeeze(0)
    return input.unsqueeze(2), lambda out: out.squeeze(2)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    k = _single(kernel_size)
    s = k if stride is None or (isinstance(stride, (list, tuple)) and not stride) else _single(stride)
    planes, back = _planes(input)
    return back(torch.nn.functional.avg_pool2d(planes, (1, k), (1, s), (0, _single(padding)), ceil_mode, count_include_pad))


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    k = _single(kernel_size)
    s = k if stride is None or (isinstance(stride, (list, tuple)) and not stride) else _single(stride)
    planes, back = _planes(input)
    out = torch.nn.functional.max_pool2d(planes, (1, k), (1, s), (0, _single(padding)), (1, _single(dilation)), ceil_mode,
                                         return_indices)
    return (back(out[0]), back(out[1])) if return_indices else back(out)


def adaptive_avg_pool1d(input, output_size):
    planes, back = _planes(input)
    return back(torch.nn.functional.adaptive_avg_pool2d(planes, (1, _single(output_size))))


def _pair(value):
    return tuple(value) if isinstance(value, (list, tuple)) else (value, value)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """im2col: every kernel_size window of the (padded) planes as a column:
    (N, C, H, W) -> (N, C * kh * kw, windows)."""
    if input.dim() not in (3, 4):
        raise NotImplementedError(f"Input Error: Only 3D or 4D input Tensors are supported (got {input.dim()}D)")
    batched = input.dim() == 4
    x = input if batched else input.unsqueeze(0)
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    x = torch.nn.functional.pad(x, (pw, pw, ph, ph))
    span_h, span_w = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    windows = x.unfold(2, span_h, sh).unfold(3, span_w, sw)[..., ::dh, ::dw]  # (N, C, oh, ow, kh, kw)
    n, c, oh, ow = windows.shape[0], windows.shape[1], windows.shape[2], windows.shape[3]
    out = windows.permute(0, 1, 4, 5, 2, 3).reshape(n, c * kh * kw, oh * ow)
    return out if batched else out.squeeze(0)
