# Runs rasbt/LLMs-from-scratch's chapter 3 and 4 package modules (llms_from_scratch/ beside
# this file, verbatim; a package whose ch04 imports `.ch03`): the four attention layers of
# chapter 3, and GPTModel (its own LayerNorm, tanh GELU and causal multi-head attention) with
# GPTModelFast (PyTorch's scaled_dot_product_attention) and greedy decoding with
# generate_text_simple. Every parameter and input is a closed formula. Prints eager,
# aot_eager and inductor outputs, greedy decodes, and three compiled SGD steps.
import os
import sys

import torch

from llms_from_scratch.ch03 import (CausalAttention, MultiHeadAttentionWrapper, SelfAttention_v1,
                                    SelfAttention_v2)
from llms_from_scratch.ch04 import GPTModel, GPTModelFast, generate_text_simple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern  # tests/real_models/driver_support.py


def fill(model, scale=1.0):
    with torch.no_grad():
        for index, param in enumerate(model.parameters()):
            param.copy_(pattern(param.numel(), index).reshape(param.shape) * scale)


def show(label, tensor):
    tensor = tensor.detach()
    print(f"{label}: {tuple(tensor.shape)} sum {tensor.sum().item():.5g} "
          f"abs mean {tensor.abs().mean().item():.5g} first {tensor.flatten()[0].item():.5g}")


x = pattern(2 * 6 * 16, 99).reshape(2, 6, 16)
for name, layer in (("SelfAttention_v1", SelfAttention_v1(16, 8)), ("SelfAttention_v2", SelfAttention_v2(16, 8)),
                    ("CausalAttention", CausalAttention(16, 8, 8, 0.0)),
                    ("MultiHeadAttentionWrapper", MultiHeadAttentionWrapper(16, 4, 8, 0.0, num_heads=2))):
    fill(layer)
    inputs = x[0] if name.startswith("SelfAttention") else x
    show(f"{name} eager", layer(inputs))
    show(f"{name} inductor", torch.compile(layer)(inputs))

cfg = {"vocab_size": 50, "context_length": 8, "emb_dim": 16, "n_heads": 4, "n_layers": 2,
       "drop_rate": 0.0, "qkv_bias": True}
tokens = (torch.arange(12).reshape(2, 6) * 7 + 1) % cfg["vocab_size"]
targets = tokens.roll(-1, 1)
for cls in (GPTModel, GPTModelFast):
    model = cls(cfg)
    fill(model, 0.5)
    print(cls.__name__, sum(p.numel() for p in model.parameters()), "weights,", len(list(model.modules())), "modules")
    model.eval()
    for backend, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")),
                         ("inductor", torch.compile(model))]:
        show(f"{cls.__name__} {backend}", run(tokens))
    print("greedy:", generate_text_simple(model, tokens[:, :3], max_new_tokens=7, context_size=cfg["context_length"]).tolist())
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    compiled = torch.compile(model)
    for step in range(3):
        loss = torch.nn.functional.cross_entropy(compiled(tokens).flatten(0, 1), targets.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"{cls.__name__} step {step} loss {loss.item():.5g}")
    show(f"{cls.__name__} trained token embedding", model.tok_emb.weight)
