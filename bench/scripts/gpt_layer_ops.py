"""The eager ops of one layer of models_bench.py's GPT (width 384, 6 heads, 256 tokens), each
the median of 30 calls in milliseconds, run unchanged by Fusescope (`fusescope-cli run`) and
by real PyTorch (`python3`): where bench_eager's "gpt forward" row spends its time."""
import torch
import torch.nn.functional as F

from timing import median_ms

torch.manual_seed(0)
x = torch.randn(1, 256, 384)
hidden = torch.randn(1, 256, 1536)
qkv_weight, qkv_bias = torch.randn(1152, 384), torch.randn(1152)
fc_weight, fc_bias = torch.randn(1536, 384), torch.randn(1536)
proj_weight, proj_bias = torch.randn(384, 1536), torch.randn(384)
head_weight = torch.randn(512, 384)
q = torch.randn(1, 256, 1152).split(384, dim=2)[0].view(1, 256, 6, 64).transpose(1, 2)
k, v, y = torch.randn(1, 6, 256, 64), torch.randn(1, 6, 256, 64), torch.randn(1, 6, 256, 64)
norm_weight, norm_bias = torch.ones(384), torch.zeros(384)
rows = [
    ("linear 384 -> 1152 (qkv)", lambda: F.linear(x, qkv_weight, qkv_bias)),
    ("linear 384 -> 1536 (fc)", lambda: F.linear(x, fc_weight, fc_bias)),
    ("linear 1536 -> 384 (proj)", lambda: F.linear(hidden, proj_weight, proj_bias)),
    ("linear 384 -> 512 (head)", lambda: F.linear(x, head_weight)),
    ("causal attention 1x6x256x64", lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True)),
    ("gelu(tanh) 256x1536", lambda: F.gelu(hidden, approximate="tanh")),
    ("layer_norm 256x384", lambda: F.layer_norm(x, (384,), norm_weight, norm_bias)),
    ("transpose(1, 2).contiguous()", lambda: y.transpose(1, 2).contiguous()),
    ("x + x 256x384", lambda: x + x),
]
with torch.no_grad():
    for name, fn in rows:
        print(f"{name}: {median_ms(fn, 30):.3f}")
