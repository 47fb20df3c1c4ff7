# Runs DETR's transformer (facebookresearch/detr models/transformer.py beside this file,
# verbatim): its own encoder and decoder layers over nn.MultiheadAttention with positional
# embeddings added to queries and keys, a key padding mask from padded images, post-norm and
# pre-norm layers, and the decoder's stack of intermediate outputs. Every parameter and
# input is a closed formula, so real PyTorch and Fusescope print the same eagerly, compiled
# (aot_eager and inductor) and over three compiled SGD steps.
import os
import sys
import argparse

import torch

from transformer import build_transformer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern, show  # tests/real_models/driver_support.py


batch, channels, height, width, queries = 2, 16, 3, 4, 5
src = pattern(batch * channels * height * width, 101).reshape(batch, channels, height, width)
pos_embed = pattern(batch * channels * height * width, 202).reshape(batch, channels, height, width) * 0.5
query_embed = pattern(queries * channels, 303).reshape(queries, channels)
mask = torch.zeros(batch, height, width, dtype=torch.bool)
mask[1, :, 3:] = True  # the second image is narrower: its last column is padding
mask[1, 2:, :] = True

for pre_norm in (False, True):
    args = argparse.Namespace(hidden_dim=channels, dropout=0.0, nheads=2, dim_feedforward=32, enc_layers=2, dec_layers=3,
                              pre_norm=pre_norm)
    model = build_transformer(args)
    with torch.no_grad():
        for index, param in enumerate(model.parameters()):
            param.copy_(pattern(param.numel(), index).reshape(param.shape))
    if not pre_norm:
        print(model.encoder.layers[0])
        print(len(list(model.parameters())), "parameters")
    for name, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")),
                      ("inductor", torch.compile(model))]:
        hs, memory = run(src, mask, query_embed, pos_embed)
        show(f"pre_norm={pre_norm} {name} hs", hs)
        show(f"pre_norm={pre_norm} {name} memory", memory)

    target = pattern(args.dec_layers * batch * queries * channels, 404).reshape(args.dec_layers, batch, queries, channels)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    compiled = torch.compile(model)
    for step in range(3):
        hs, memory = compiled(src, mask, query_embed, pos_embed)
        loss = torch.nn.functional.mse_loss(hs, target) + memory.pow(2).mean() * 0.1
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"pre_norm={pre_norm} step {step} loss {loss.item():.5g}")
