# Runs guoyang9/NCF's neural collaborative filtering model (model.py beside this file,
# verbatim): GMF, MLP and NeuMF, the pre-trained NeuMF built from a GMF's and an MLP's
# weights through `.weight.data.copy_`, its normal and Kaiming inits. Every parameter and
# input is a closed formula, so real PyTorch and Fusescope print the same eagerly, compiled
# (aot_eager and inductor) and over three compiled SGD steps of its BCEWithLogits loss.
import os
import sys

import torch

from model import NCF

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern  # tests/real_models/driver_support.py


def fill(model, scale=1.0):
    with torch.no_grad():
        for index, param in enumerate(model.parameters()):
            param.copy_(pattern(param.numel(), index).reshape(param.shape) * scale)


def show(label, tensor):
    tensor = tensor.detach()
    print(f"{label}: {tuple(tensor.shape)} sum {tensor.sum().item():.5g} first {tensor.flatten()[0].item():.5g}")


users = (torch.arange(8) * 5) % 7
items = (torch.arange(8) * 3 + 1) % 11
labels = (torch.arange(8) % 2).float()
for kind in ("GMF", "MLP", "NeuMF-end"):
    model = NCF(user_num=7, item_num=11, factor_num=4, num_layers=2, dropout=0.0, model=kind)
    fill(model)
    print(kind, sum(p.numel() for p in model.parameters()), "weights")
    for name, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")),
                      ("inductor", torch.compile(model))]:
        show(f"{kind} {name}", run(users, items))
gmf = NCF(7, 11, 4, 2, 0.0, "GMF")
mlp = NCF(7, 11, 4, 2, 0.0, "MLP")
fill(gmf)
fill(mlp, 0.5)
pretrained = NCF(7, 11, 4, 2, 0.0, "NeuMF-pre", gmf, mlp)
print(pretrained)
show("NeuMF-pre eager", pretrained(users, items))
optimizer = torch.optim.SGD(pretrained.parameters(), lr=0.5)
compiled = torch.compile(pretrained)
for step in range(3):
    loss = torch.nn.BCEWithLogitsLoss()(compiled(users, items), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.5g}")
show("predict layer", pretrained.predict_layer.weight)
