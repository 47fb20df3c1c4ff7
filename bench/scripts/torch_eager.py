"""Eager op speed, run unchanged by Fusescope (`fusescope-cli run`) and by real PyTorch
(`python3`): issue 66's workloads, each the median of its repeats in milliseconds, one
"name: ms" line per row. bench/bench_eager alternates the two and prints the ratios."""
import os

import torch
import torch.nn.functional as F

from models_bench import GPT, GPTConfig, ResNet
from timing import median_ms
from torch_chains import chain, chain_transcendental


def adds(a, b):
    for _ in range(1000):
        a + b


torch.manual_seed(0)
config = GPTConfig()
gpt, resnet = GPT(config).eval(), ResNet().eval()
tokens, images = torch.randint(0, config.vocab, (1, config.context)), torch.randn(8, 3, 64, 64)
square, rows = torch.randn(4096, 4096), torch.randn(8192, 1024)
flat, big = torch.randn(16 * 1024 * 1024), torch.randn(64 * 1024 * 1024)
small_a, small_b = torch.randn(8), torch.randn(8)
weight, bias = torch.ones(1024), torch.zeros(1024)
rows_run = [
    ("gpt forward", lambda: gpt(tokens), 10),
    ("resnet forward", lambda: resnet(images), 10),
    ("softmax 4096x4096", lambda: torch.softmax(square, dim=-1), 10),
    ("pointwise exp/sin/tanh chain 16M", lambda: chain_transcendental(flat), 5),
    ("layer_norm 8192x1024", lambda: F.layer_norm(rows, (1024,), weight, bias), 10),
    ("sum 64M", lambda: big.sum(), 10),
    ("pointwise chain 16M", lambda: chain(flat), 5),
    ("1000 adds of 8 elements", lambda: adds(small_a, small_b), 10),
]
only = [name for name in os.environ.get("EAGER_ROWS", "").split(",") if name]  # the rows to run (all when none)
with torch.no_grad():
    for name, fn, repeats in rows_run:
        if not only or name in only:
            print(f"{name}: {median_ms(fn, repeats):.3f}", flush=True)
