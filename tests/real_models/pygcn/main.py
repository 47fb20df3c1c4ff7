# Runs tkipf/pygcn's graph convolutional network (pygcn/layers.py and models.py beside this
# file, verbatim; without the repository's pygcn/__init__.py, which imports the numpy- and
# scipy-using utils.py, so `pygcn` is a namespace package here) on a ring graph of eight
# nodes with a dense, row-normalised adjacency matrix. Every parameter and input is a closed
# formula. Prints the module, eager, aot_eager and inductor outputs, and three compiled SGD
# steps of the node classification loss.
import os
import sys

import torch
import torch.nn.functional as F

from pygcn.models import GCN

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern, show  # tests/real_models/driver_support.py


nodes = 8
features = pattern(nodes * 5, 99).reshape(nodes, 5)
ring = torch.eye(nodes) + torch.roll(torch.eye(nodes), 1, 0) + torch.roll(torch.eye(nodes), -1, 0)
adj = ring / ring.sum(1, keepdim=True)
labels = torch.arange(nodes) % 3
model = GCN(nfeat=5, nhid=4, nclass=3, dropout=0.5)
print(model)
print([tuple(p.shape) for p in model.parameters()])
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape))
model.eval()
for backend, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")),
                     ("inductor", torch.compile(model))]:
    show(f"eval {backend}", run(features, adj))
model.train()
model.dropout = 0.0  # the dropout draws would differ from PyTorch's
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
compiled = torch.compile(model)
for step in range(3):
    loss = F.nll_loss(compiled(features, adj), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.5g}")
show("trained gc1 weight", model.gc1.weight)
