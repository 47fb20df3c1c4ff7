# A GPT-style language model in miniature: token and position embeddings, pre-norm
# causal self-attention and MLP blocks, tied output head. Weights are set from arange so
# the output does not depend on a random generator.
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    vocab: int = 11
    context: int = 6
    width: int = 8
    heads: int = 2
    layers: int = 2


class SelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.heads = config.heads
        self.qkv = nn.Linear(config.width, 3 * config.width)
        self.proj = nn.Linear(config.width, config.width)

    def forward(self, x):
        batch, time, width = x.shape
        q, k, v = self.qkv(x).split(width, dim=2)
        q = q.view(batch, time, self.heads, width // self.heads).transpose(1, 2)
        k = k.view(batch, time, self.heads, width // self.heads).transpose(1, 2)
        v = v.view(batch, time, self.heads, width // self.heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).contiguous().view(batch, time, width))


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.width)
        self.attn = SelfAttention(config)
        self.ln_2 = nn.LayerNorm(config.width)
        self.mlp = nn.Sequential(nn.Linear(config.width, 4 * config.width), nn.GELU(), nn.Linear(4 * config.width, config.width))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class TinyGPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab, config.width)
        self.wpe = nn.Embedding(config.context, config.width)
        self.blocks = nn.ModuleList([Block(config) for _ in range(config.layers)])
        self.ln_f = nn.LayerNorm(config.width)
        self.head = nn.Linear(config.width, config.vocab, bias=False)
        self.head.weight = self.wte.weight  # tied, as GPT-2 does

    def forward(self, tokens):
        batch, time = tokens.shape
        if time > self.config.context:
            raise ValueError(f"sequence of {time} tokens is longer than the context of {self.config.context}")
        positions = torch.arange(0, time, dtype=torch.long)
        x = self.wte(tokens) + self.wpe(positions)
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


torch.manual_seed(0)
model = TinyGPT(Config())
with torch.no_grad():
    for index, (name, parameter) in enumerate(model.named_parameters()):
        values = torch.arange(parameter.numel(), dtype=torch.float32).reshape(parameter.shape)
        parameter.copy_(torch.sin(values * 0.37 + index) * (0.5 / math.sqrt(parameter.shape[-1])))
model.eval()
print(model)
print(sum(p.numel() for p in model.parameters()), [name for name, _ in model.named_parameters()][:4])

tokens = torch.tensor([[1, 5, 2, 9, 3], [4, 4, 0, 10, 7]])
with torch.no_grad():
    logits = model(tokens)
    print(logits.shape)
    print(logits[0, -1])
    print(logits.argmax(dim=-1))
    compiled = torch.compile(model)
    print(torch.allclose(compiled(tokens), logits, atol=1e-5))
    print(torch.allclose(compiled(tokens[:, :3]), model(tokens[:, :3]), atol=1e-5))
try:
    model(torch.tensor([[1, 2, 3, 4, 5, 6, 7]]))
except ValueError as e:
    print(e)
try:
    model(torch.tensor([[11]]))
except IndexError as e:
    print("IndexError:", e)
