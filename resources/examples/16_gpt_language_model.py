# A GPT-style language model compiled as a whole: a config dataclass, token and position
# embeddings (loads at the rows the tokens name), causal self-attention and MLP blocks, and
# an output head tied to the token embedding. Greedy decoding calls the compiled model once
# per new token on a window of fixed length, so it compiles once: causal attention makes
# the logits at a position independent of the padding after it.
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GPTConfig:
    vocab_size: int = 32
    context: int = 16
    width: int = 32
    heads: int = 4
    layers: int = 2


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.heads = config.heads
        self.qkv = nn.Linear(config.width, 3 * config.width)
        self.proj = nn.Linear(config.width, config.width)

    def forward(self, x):
        batch, time, width = x.shape
        q, k, v = self.qkv(x).split(width, dim=2)
        q, k, v = [t.view(batch, time, self.heads, width // self.heads).transpose(1, 2) for t in (q, k, v)]
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).contiguous().view(batch, time, width))


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.width)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = nn.LayerNorm(config.width)
        self.mlp = nn.Sequential(nn.Linear(config.width, 4 * config.width), nn.GELU(), nn.Linear(4 * config.width, config.width))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.wte = nn.Embedding(config.vocab_size, config.width)
        self.wpe = nn.Embedding(config.context, config.width)
        self.blocks = nn.ModuleList([Block(config) for _ in range(config.layers)])
        self.ln_f = nn.LayerNorm(config.width)
        self.lm_head = nn.Linear(config.width, config.vocab_size, bias=False)
        self.lm_head.weight = self.wte.weight  # tied, as GPT-2 does

    def forward(self, tokens):
        positions = torch.arange(0, tokens.shape[1], dtype=torch.long)
        x = self.wte(tokens) + self.wpe(positions)
        for block in self.blocks:
            x = block(x)
        return self.lm_head(self.ln_f(x))


model = GPT(GPTConfig())
with torch.no_grad():  # weights from arange, so the output does not depend on a random generator
    for i, p in enumerate(model.parameters()):
        values = torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape)
        p.copy_(torch.sin(values * 0.37 + i) * (0.5 / math.sqrt(p.shape[-1])))
model.eval()
print("parameters:", sum(p.numel() for p in model.parameters()))

compiled = torch.compile(model)
window = torch.zeros(1, 8, dtype=torch.long)
prompt = [1, 7, 3]
window[0, : len(prompt)] = torch.tensor(prompt)
length = len(prompt)
with torch.no_grad():
    for step in range(5):
        logits = compiled(window)
        window[0, length] = logits[0, length - 1].argmax()
        length += 1
    print("generated:", window[0, :length].tolist())
    print("matches eager:", torch.allclose(compiled(window), model(window), atol=1e-4))
