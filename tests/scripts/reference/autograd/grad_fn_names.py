# The name of the backward node each differentiable call records (tensor.grad_fn.name()),
# including the overloads a call picks (sum over dims, x ** 2 against 2 ** x), the fused op
# a composite is in PyTorch (cross_entropy ends in NllLossBackward0), and calls that record
# nothing because they give back their argument.
import torch
import torch.nn.functional as F

a = torch.tensor([[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]], requires_grad=True)
b = torch.tensor([[1.5, 2.0, -0.5], [0.5, -1.0, 3.0]], requires_grad=True)
m = torch.tensor([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]], requires_grad=True)
bias = torch.tensor([0.1, -0.2], requires_grad=True)
batch = torch.arange(24.0).reshape(2, 4, 3).requires_grad_()
images = torch.arange(32.0).reshape(1, 2, 4, 4).requires_grad_()
kernel = torch.full((3, 2, 3, 3), 0.1, requires_grad=True)
heads = torch.linspace(-1.0, 1.0, 24).reshape(1, 2, 4, 3).requires_grad_()
labels = torch.tensor([2, 0])
mask = torch.tensor([[True, False, True], [False, True, False]])
targets = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.25, 0.0]])

results = {
    "a + b": a + b, "a - b": a - b, "a * b": a * b, "a / b": a / b, "a * 2": a * 2, "a + 1": a + 1,
    "1 - a": 1 - a, "a / 2": a / 2, "2 / a": 2 / a, "-a": -a, "a ** 2": a ** 2, "|a| ** b": a.abs() ** b,
    "2 ** a": 2 ** a, "a.mul_(2)": a.exp().mul_(2), "a.add_(b)": a.exp().add_(b), "a.abs_()": a.exp().abs_(),
    "exp": a.exp(), "log": b.abs().log(), "log1p": b.abs().log1p(), "log2": b.abs().log2(), "exp2": a.exp2(),
    "expm1": a.expm1(), "sqrt": b.abs().sqrt(), "rsqrt": b.abs().rsqrt(), "reciprocal": a.reciprocal(),
    "square": a.square(), "abs": a.abs(), "sign": a.sign(), "floor": a.floor(), "ceil": a.ceil(),
    "round": a.round(), "sin": a.sin(), "cos": a.cos(), "tanh": a.tanh(), "sigmoid": a.sigmoid(), "erf": a.erf(),
    "relu": a.relu(), "gelu": F.gelu(a), "gelu tanh": F.gelu(a, approximate="tanh"), "silu": F.silu(a),
    "softplus": F.softplus(a), "hardswish": F.hardswish(a), "leaky_relu": F.leaky_relu(a, 0.2), "elu": F.elu(a),
    "logaddexp": torch.logaddexp(a, b), "clamp": a.clamp(-1, 1), "clamp(min=)": a.clamp(min=0),
    "clamp(tensor)": a.clamp(b), "maximum": torch.maximum(a, b), "minimum": torch.minimum(a, b),
    "max(a, b)": torch.max(a, b), "remainder(0.7)": a.remainder(0.7), "remainder(b)": a.remainder(b),
    "where": torch.where(mask, a, b), "masked_fill": a.masked_fill(mask, 0.0),
    "sum": a.sum(), "sum(dim)": a.sum(1), "sum(keepdim)": a.sum(1, keepdim=True), "sum(dtype)": a.sum(dtype=torch.float64),
    "mean": a.mean(), "mean(dim)": a.mean(0), "prod": a.prod(), "prod(dim)": a.prod(1), "amax": a.amax(1),
    "amin": a.amin(0), "max()": a.max(), "max(dim)": a.max(1).values, "min(dim)": a.min(1).values,
    "var": a.var(1), "var()": a.var(), "std": a.std(1), "var(unbiased)": torch.var(a, False),
    "cumsum": a.cumsum(1), "topk": a.topk(2).values, "softmax": a.softmax(-1), "softmax(0)": a.softmax(0),
    "log_softmax": a.log_softmax(-1),
    "a @ m": a @ m, "mm": a.mm(m), "bmm": batch.bmm(batch.transpose(1, 2)), "matmul 3d": batch @ batch.transpose(1, 2),
    "matmul 3d 2d": batch @ m, "matmul 1d 1d": a[0] @ b[0], "matmul 2d 1d": a @ b[0], "matmul 1d 2d": a[0] @ m,
    "outer": torch.outer(a[0], b[1]), "linear": F.linear(a, m.t(), bias), "linear (no bias)": F.linear(a, m.t()),
    "linear 3d": F.linear(batch, m.t(), bias), "linear 1d": F.linear(a[0], m.t(), bias),
    "layer_norm": F.layer_norm(a, (3,)), "group_norm": F.group_norm(batch, 2),
    "batch_norm": F.batch_norm(a, None, None, training=True),
    "batch_norm (eval)": F.batch_norm(a, torch.zeros(3), torch.ones(3)),
    "conv2d": F.conv2d(images, kernel), "max_pool2d": F.max_pool2d(images, 2), "avg_pool2d": F.avg_pool2d(images, 2),
    "adaptive_avg_pool2d": F.adaptive_avg_pool2d(images, 2), "adaptive_avg_pool2d(1)": F.adaptive_avg_pool2d(images, 1),
    "attention": F.scaled_dot_product_attention(heads, heads, heads, is_causal=True),
    "embedding": F.embedding(labels.clamp(max=1), a), "cross_entropy": F.cross_entropy(a, labels),
    "cross_entropy (smoothing)": F.cross_entropy(a, labels, label_smoothing=0.1), "nll_loss": F.nll_loss(a, labels),
    "mse_loss": F.mse_loss(a, b), "mse_loss (none)": F.mse_loss(a, b, reduction="none"), "l1_loss": F.l1_loss(a, b),
    "bce_with_logits": F.binary_cross_entropy_with_logits(a, targets),
    "pad": F.pad(a, (1, 2)), "pad (reflect)": F.pad(batch, (1, 1), mode="reflect"),
    "view": a.view(3, 2), "reshape": a.reshape(6), "reshape (copy)": a.t().reshape(6), "flatten": batch.flatten(1),
    "flatten (copy)": batch.transpose(0, 1).flatten(), "t": a.t(), "transpose": a.transpose(0, 1),
    "permute": a.permute(1, 0), "unsqueeze": a.unsqueeze(0), "squeeze": a.unsqueeze(0).squeeze(),
    "squeeze(0)": a.unsqueeze(0).squeeze(0), "expand": a[:1].expand(4, 3), "contiguous": a.t().contiguous(),
    "select": a[1], "slice": a[:, 1:], "narrow": a.narrow(1, 0, 2), "cat": torch.cat([a, b]),
    "stack": torch.stack([a, b]), "split": a.split(1)[1], "split (sizes)": a.split([1, 2], 1)[1],
    "chunk": a.chunk(2, 1)[0], "index_select": a.index_select(1, torch.tensor([2, 0])),
    "gather": a.gather(1, torch.tensor([[0], [1]])), "flip": a.flip(0), "repeat": a.repeat(2, 1),
    "tril": a.tril(), "triu": a.triu(), "clone": a.clone(), "double": a.double(), "to(float64)": a.to(torch.float64),
    "float() of float64": a.double().float(), "type_as": a.double().type_as(a),
}
for name, value in results.items():
    print(f"{name}: {value.grad_fn.name()}")

# Calls that give back their argument record nothing: a stays a leaf.
for same in (a.float(), a.to(torch.float32), a.contiguous(), a.type_as(b), F.dropout(a, 0.5, training=False)):
    print(same is a, same.grad_fn, same.is_leaf)
# Factories shaped like a tensor make tensors no gradient flows through.
print(torch.zeros_like(a).requires_grad, torch.ones_like(a).requires_grad, torch.full_like(a, 2.0).requires_grad)
