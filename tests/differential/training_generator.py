#!/usr/bin/env python3
"""Small training programs: a module of randomly chosen layers (linear, layer norm, attention,
convolution, softmax, cumsum, cat, flip, clamp ...) and a loss, compiled and trained for three
steps beside an eager twin with the same weights; the third step's batch and sequence are
longer (a recompile with dynamic sizes, so its backward graph has SymInt sizes).

Each step prints its input's shape and whether the compiled loss and every parameter's
gradient equal the eager twin's within float32 tolerance (`same True True`). Gradients are
where a compiled backward graph goes wrong silently: attention's once came out wrong under
inductor only (an LLVM miscompile, docs/inductor.md). A program is valid PyTorch: real
PyTorch prints the same (tests/differential/README.md).

    python3 training_generator.py SEED            # the program for SEED on stdout
"""
import random
import sys

# Layers, each a line of forward over x: [batch, seq, D]; {i} numbers a layer's own module.
LAYERS = [
    "x = self.linear{i}(x)",
    "x = F.gelu(x)",
    "x = torch.tanh(x)",
    "x = self.norm{i}(x)",
    "x = x.softmax(-1) * {D}",
    "x = x + self.linear{i}(x).relu()",
    "x = F.silu(x) * 0.5",
    "x = (x @ x.transpose(-1, -2)).softmax(-1) @ x",
    "x = F.scaled_dot_product_attention(x, x * 0.5, x)",
    "x = x.log_softmax(-1)",
    "x = x - x.mean(-1, keepdim=True)",
    "x = x / (x.pow(2).mean(-1, keepdim=True) + 1e-5).sqrt()",
    "x = self.conv{i}(x.transpose(1, 2)).transpose(1, 2)",
    "x = x.cumsum(1) * 0.1",
    "x = torch.cat([x[:, :1], x[:, 1:] * 2], 1)",
    "x = x.flip(1) + x",
    "x = F.layer_norm(x, ({D},))",
    "x = x.max(-1, keepdim=True).values + x",
    "x = x.exp().clamp(max=5.0)",
]
LOSSES = [
    "out.pow(2).mean()",
    "F.cross_entropy(out.reshape(-1, {D}), target.reshape(-1))",
    "F.mse_loss(out, out.detach() * 0.5 + 0.1)",
    "out.abs().sum() * 0.01",
    "F.smooth_l1_loss(out, torch.zeros_like(out))",
]


def generate(seed):
    r = random.Random(seed)
    d, seq, batch = r.choice([4, 6, 8]), r.choice([3, 5, 7]), r.choice([2, 3])
    layers = [r.choice(LAYERS).format(i=i, D=d) for i in range(r.randint(2, 6))]
    modules = [f"        self.first = nn.Linear({d}, {d})"]
    for i in range(len(layers)):
        if f"linear{i}" in layers[i]:
            modules.append(f"        self.linear{i} = nn.Linear({d}, {d})")
        if f"norm{i}" in layers[i]:
            modules.append(f"        self.norm{i} = nn.LayerNorm({d})")
        if f"conv{i}" in layers[i]:
            modules.append(f"        self.conv{i} = nn.Conv1d({d}, {d}, 3, padding=1)")
    forward = "\n".join("        " + line for line in ["x = self.first(x)"] + layers)
    loss = r.choice(LOSSES).format(D=d)
    modules_text = "\n".join(modules)
    return f'''# training_generator.py seed {seed}
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
{modules_text}

    def forward(self, x, target):
{forward}
        out = x
        return {loss}


def made():
    model = Model()
    with torch.no_grad():
        for k, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape).sin() * (0.3 + 0.05 * (k % 7)))
    return model


eager, trained = made(), made()
compiled = torch.compile(trained)
for step, (batch, seq) in enumerate([({batch}, {seq}), ({batch}, {seq}), ({batch + 1}, {seq + 2})]):
    x = (torch.arange(batch * seq * {d}).reshape(batch, seq, {d}) * 0.37 + step).sin()
    target = torch.arange(batch * seq).reshape(batch, seq) % {d}
    expected, got = eager(x, target), compiled(x, target)
    expected.backward()
    got.backward()
    grads = all(torch.allclose(a.grad, b.grad, rtol=1e-3, atol=1e-5) for a, b in zip(eager.parameters(), trained.parameters()))
    print(step, tuple(x.shape), "same", torch.allclose(expected, got, rtol=1e-4, atol=1e-5), grads)
    eager.zero_grad()
    trained.zero_grad()
'''


if __name__ == "__main__":
    print(generate(int(sys.argv[1])), end="")
