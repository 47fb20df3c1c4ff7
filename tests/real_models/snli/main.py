# Runs pytorch/examples' SNLI classifier (legacy/snli/model.py beside this file, verbatim): an
# embedding, a projection through `class Linear(Bottle, nn.Linear)` (super() along a multiple
# inheritance), a bidirectional two-layer LSTM encoder and an MLP. Every parameter and input
# is a closed formula, so real PyTorch and Fusescope print the same eagerly, compiled
# (aot_eager and inductor; the graph breaks at the LSTM, as Dynamo does not trace it) and over
# three compiled SGD steps.
import os
import sys
import argparse

import torch

from model import SNLIClassifier

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern  # tests/real_models/driver_support.py


config = argparse.Namespace(n_embed=30, d_embed=12, d_proj=10, projection=True, d_hidden=8, n_layers=2, dp_ratio=0.0,
                            birnn=True, n_cells=4, fix_emb=False, d_out=3)
model = SNLIClassifier(config)
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape))
print(model.encoder.rnn, model.projection, len(list(model.parameters())))
batch = argparse.Namespace(premise=(torch.arange(7 * 4).reshape(7, 4) * 11 + 3) % 30,
                           hypothesis=(torch.arange(5 * 4).reshape(5, 4) * 7 + 1) % 30)
labels = torch.tensor([0, 2, 1, 2])
for name, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")), ("inductor", torch.compile(model))]:
    scores = run(batch)
    print(f"{name}: {tuple(scores.shape)} sum {scores.sum().item():.5g} first row {[round(v, 4) for v in scores[0].tolist()]}")

optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
compiled = torch.compile(model)
for step in range(3):
    loss = torch.nn.functional.cross_entropy(compiled(batch), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.5g}")
