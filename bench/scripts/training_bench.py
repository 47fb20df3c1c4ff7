# Training steps, run unchanged by Fusescope (`fusescope-cli run`) and by real PyTorch
# (`python3`): an MLP (784-512-512-10, batch 256) with SGD and momentum, and a GPT-style model
# (2 blocks, width 128, 4 heads, causal attention written out, 64 tokens, batch 8,
# vocabulary 256) with AdamW, both on cross_entropy. Each step is forward, loss, backward and
# the optimizer's step. "compiled": the model and its loss are one compiled function (forward
# and backward graphs through AOT Autograd) and the optimizer runs eagerly; "compiled step":
# the optimizer's step is compiled too (torch.compile(opt.step)). Prints the median ms of 10
# steps after 2 warm-up steps for each, and the first compiled steps (the compiles). bench/README.md ("training") has the commands.
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 512)
        self.fc2 = nn.Linear(512, 512)
        self.fc3 = nn.Linear(512, 10)

    def forward(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


class Block(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)
        self.ln2 = nn.LayerNorm(width)
        self.fc = nn.Linear(width, 4 * width)
        self.proj = nn.Linear(4 * width, width)

    def attention(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(c // self.heads)
        causal = torch.tril(torch.ones(t, t, dtype=torch.bool))
        scores = scores.masked_fill(causal.logical_not(), float("-inf"))
        y = torch.softmax(scores, dim=-1) @ v
        return self.out(y.transpose(1, 2).contiguous().view(b, t, c))

    def forward(self, x):
        x = x + self.attention(self.ln1(x))
        return x + self.proj(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class GPT(nn.Module):
    def __init__(self, vocab=256, width=128, heads=4, layers=2, context=64):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Embedding(context, width)
        self.blocks = nn.ModuleList([Block(width, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)

    def forward(self, idx):
        x = self.tokens(idx) + self.positions(torch.arange(idx.shape[1]))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


def set_parameters(model):  # explicit values: our random generator is not PyTorch's
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_((torch.arange(p.numel()).float() * 0.37 + i).sin().reshape(p.shape) * (0.5 / math.sqrt(p.shape[-1])))


def mlp_loss(model, x, y):
    return F.cross_entropy(model(x), y)


def gpt_loss(model, idx, targets):
    logits = model(idx)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def step_ms(model, opt_step, zero_grad, loss_fn, args):
    start = time.perf_counter()
    loss = loss_fn(model, *args)
    zero_grad()
    loss.backward()
    opt_step()
    return (time.perf_counter() - start) * 1000, loss.item()


def measure(name, make_model, make_opt, loss_fn, args):
    results = {}
    modes = ["eager", "compiled", "compiled step"]
    for mode in modes:
        model = make_model()
        set_parameters(model)
        opt = make_opt(model)
        fn = torch.compile(loss_fn) if mode != "eager" else loss_fn
        opt_step = torch.compile(opt.step) if mode == "compiled step" else opt.step
        first, _ = step_ms(model, opt_step, opt.zero_grad, fn, args)
        step_ms(model, opt_step, opt.zero_grad, fn, args)
        times = []
        for _ in range(10):
            ms, loss = step_ms(model, opt_step, opt.zero_grad, fn, args)
            times.append(ms)
        times.sort()
        results[mode] = ((times[4] + times[5]) / 2, first, loss)
    print(f"{name}: " + ", ".join(f"{mode} {results[mode][0]:.2f} ms" for mode in modes) + " per step; first step "
          + ", ".join(f"{mode} {results[mode][1]:.0f} ms" for mode in modes[1:]) + "; loss after 12 steps "
          + " / ".join(f"{results[mode][2]:.4f}" for mode in modes))


x = (torch.arange(256 * 784).float() * 0.013).sin().reshape(256, 784)
y = torch.arange(256) % 10
measure("mlp", MLP, lambda m: torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9), mlp_loss, (x, y))
data = (torch.arange(8 * 65) * 7) % 256
idx, targets = data.reshape(8, 65)[:, :-1], data.reshape(8, 65)[:, 1:]
measure("gpt", GPT, lambda m: torch.optim.AdamW(m.parameters(), lr=1e-3), gpt_loss, (idx, targets))
