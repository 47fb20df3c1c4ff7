# Compile and forward times of two models, run unchanged by Fusescope (`fusescope-cli run`)
# and by real PyTorch (`python3`): a GPT-style language model (6 layers, width 384, 6 heads,
# a sequence of 256 tokens) and a ResNet-style CNN (a stem and 4 residual stages with
# BatchNorm in eval, batch 8 of 3x64x64 images). For each: eager forward (median of 10),
# the first compiled call (cold: run with an empty compile cache), the first call after
# torch._dynamo.reset() (warm: the compiler's caches filled), and the compiled forward
# (median of 10). bench/README.md ("models") has the commands that set the caches.
import math
import time
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GPTConfig:
    vocab: int = 512
    context: int = 256
    width: int = 384
    heads: int = 6
    layers: int = 6


class SelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.heads = config.heads
        self.qkv = nn.Linear(config.width, 3 * config.width)
        self.proj = nn.Linear(config.width, config.width)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).contiguous().view(b, t, c))


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.width)
        self.attn = SelfAttention(config)
        self.ln_2 = nn.LayerNorm(config.width)
        self.mlp = nn.Sequential(nn.Linear(config.width, 4 * config.width), nn.GELU(approximate="tanh"),
                                 nn.Linear(4 * config.width, config.width))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.tokens = nn.Embedding(config.vocab, config.width)
        self.positions = nn.Embedding(config.context, config.width)
        self.blocks = nn.ModuleList([Block(config) for _ in range(config.layers)])
        self.ln_f = nn.LayerNorm(config.width)
        self.head = nn.Linear(config.width, config.vocab, bias=False)

    def forward(self, idx):
        positions = torch.arange(0, idx.shape[1])
        x = self.tokens(idx) + self.positions(positions)
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


class ResidualBlock(nn.Module):
    def __init__(self, channels_in, channels, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(channels_in, channels, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.shortcut = nn.Identity()
        if stride != 1 or channels_in != channels:
            self.shortcut = nn.Sequential(nn.Conv2d(channels_in, channels, 1, stride=stride, bias=False), nn.BatchNorm2d(channels))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(y)) + self.shortcut(x))


class ResNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.stages = nn.Sequential(ResidualBlock(32, 32, 1), ResidualBlock(32, 64, 2), ResidualBlock(64, 128, 2),
                                    ResidualBlock(128, 256, 2))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(256, classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.stages(self.stem(x))), 1))


def milliseconds(fn, *args):
    start = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - start) * 1000, out


def median_ms(fn, *args):
    times = []
    for _ in range(10):
        ms, _ = milliseconds(fn, *args)
        times.append(ms)
    times.sort()
    return (times[4] + times[5]) / 2


def measure(name, model, example):
    model.eval()
    with torch.no_grad():
        model(example)  # warm-up
        eager = median_ms(model, example)
        compiled = torch.compile(model)
        cold, out = milliseconds(compiled, example)
        torch._dynamo.reset()
        compiled = torch.compile(model)
        warm, out = milliseconds(compiled, example)
        forward = median_ms(compiled, example)
        same = torch.allclose(out, model(example), atol=1e-3, rtol=1e-3)
    print(f"{name}: eager {eager:.2f} ms, cold compile {cold:.0f} ms, warm compile {warm:.0f} ms, "
          f"compiled {forward:.2f} ms, matches eager: {same}")


if __name__ == "__main__":  # bench/scripts/torch_eager.py imports the models
    torch.manual_seed(0)
    config = GPTConfig()
    measure("gpt", GPT(config), torch.randint(0, config.vocab, (1, config.context)))
    measure("resnet", ResNet(), torch.randn(8, 3, 64, 64))
