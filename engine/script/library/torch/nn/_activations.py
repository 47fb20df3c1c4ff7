# torch.nn.functional's activations and normalisations that are arithmetic on other ops,
# as PyTorch documents them (torch.nn.functional imports them all).
import torch


def hardsigmoid(input, inplace=False):
    return torch.nn.functional.relu6(input + 3) / 6


def hardshrink(input, lambd=0.5):
    return torch.where((input > lambd) | (input < -lambd), input, torch.zeros_like(input))


def softshrink(input, lambd=0.5):
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    zero = torch.zeros_like(input)
    return torch.where(input > lambd, input - lambd, torch.where(input < -lambd, input + lambd, zero))


def softsign(input):
    return input / (input.abs() + 1)


def tanhshrink(input):
    return input - input.tanh()


def logsigmoid(input):
    """log(sigmoid(x)) without overflow: min(x, 0) - log1p(exp(-|x|))."""
    return torch.clamp(input, max=0) - torch.log1p(torch.exp(-input.abs()))


def mish(input, inplace=False):
    return input * torch.tanh(torch.nn.functional.softplus(input))


def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    return torch.clamp(input, min=0) + torch.clamp(alpha * torch.expm1(input / alpha), max=0)


def selu(input, inplace=False):
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    return scale * (torch.clamp(input, min=0) + torch.clamp(alpha * torch.expm1(input), max=0))


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    if input.size(dim) % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim % input.dim()} is size {input.size(dim)}")
    a, b = input.chunk(2, dim)
    return a * torch.sigmoid(b)


def threshold(input, threshold, value, inplace=False):
    return torch.where(input > threshold, input, torch.full_like(input, value))


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    return torch.softmax(-input if dtype is None else -input.to(dtype), dim)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    norm = input.norm(p, dim, keepdim=True) if input.dim() else input.norm(p)
    return input / norm.clamp(min=eps).expand_as(input)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """x / sqrt(mean(x^2) + eps) over the last dims, times weight; eps defaults to the dtype's."""
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    if list(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={shape}, expected input with shape [*, {', '.join(str(s) for s in shape)}], "
                           f"but got input of size{list(input.shape)}")
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    dims = list(range(input.dim() - len(shape), input.dim()))
    out = input * torch.rsqrt(input.pow(2).mean(dims, keepdim=True) + eps) if dims else input * torch.rsqrt(input.pow(2) + eps)
    return out * weight if weight is not None else out


def prelu(input, weight):
    if weight.numel() != 1 and (input.dim() < 2 or weight.numel() != input.size(1)):
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = {weight.numel()} "
                           f"and channel size = {input.size(1) if input.dim() > 1 else 1}.")
    w = weight.reshape([-1] + [1] * (input.dim() - 2)) if weight.numel() != 1 and input.dim() > 1 else weight.reshape([])
    return torch.where(input >= 0, input, w * input)


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """As ATen: the inputs broadcast, each over its norm (raised to eps without touching the
    gradient), their products summed along dim."""
    x1, x2 = torch.broadcast_tensors(x1, x2)
    n1 = (x1 * x1).sum(dim, keepdim=True).sqrt().clone()
    n2 = (x2 * x2).sum(dim, keepdim=True).sqrt().clone()
    with torch.no_grad():
        n1.clamp_(min=eps)
        n2.clamp_(min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False):
    rank = max(x1.dim(), x2.dim())
    if rank == 0:
        return (x1 - x2 + eps).abs()
    return (x1 - x2 + eps).norm(p, rank - 1, keepdim=keepdim)


def channel_shuffle(input, groups):
    n, c = input.size(0), input.size(1)
    rest = list(input.shape[2:])
    return input.reshape([n, groups, c // groups] + rest).transpose(1, 2).reshape([n, c] + rest)


def bilinear(input1, input2, weight, bias=None):
    """x1^T A x2 + b for each output feature: A is weight[o]."""
    out = torch.einsum("...i,oij,...j->...o", input1, weight, input2)
    return out + bias if bias is not None else out


def local_response_norm(input, size, alpha=0.0001, beta=0.75, k=1.0):
    """Each element over (k + alpha * the mean square of its `size` neighbouring channels)^beta."""
    if input.dim() < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {input.dim()} dimensions)")
    if input.numel() == 0:
        return input
    squares = (input * input).unsqueeze(1)
    padded = torch.nn.functional.pad(squares.reshape(squares.size(0), 1, squares.size(2), -1), (0, 0, size // 2, (size - 1) // 2))
    mean = torch.nn.functional.avg_pool2d(padded, (size, 1), stride=1).reshape(input.shape)
    return input / (k + alpha * mean) ** beta


def upsample_nearest(input, size=None, scale_factor=None):
    return torch.nn.functional.interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    return torch.nn.functional.interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def pdist(input, p=2):
    """The distances between every pair of rows i < j, in row-major order of the pairs."""
    n = input.size(0)
    rows = [i for i in range(n) for j in range(i + 1, n)]
    cols = [j for i in range(n) for j in range(i + 1, n)]
    if not rows:
        return input.new_zeros((0,))
    gaps = input[torch.tensor(rows)] - input[torch.tensor(cols)]
    return torch.linalg.vector_norm(gaps, p, dim=-1)
