# Runs xternalz/WideResNet-pytorch's WideResNet (wideresnet.py beside this file, verbatim): its
# He-initialised convolutions and `.data.fill_`/`.data.zero_` init, pre-activation blocks with
# 1x1 shortcuts, batch norm in training and evaluation. Every parameter and input is a closed
# formula, so real PyTorch and Fusescope print the same eagerly, compiled (aot_eager and
# inductor) and over three compiled SGD steps.
import os
import sys

import torch

from wideresnet import WideResNet

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern, show  # tests/real_models/driver_support.py


model = WideResNet(depth=10, num_classes=10, widen_factor=2, dropRate=0.0)
print("init:", model.fc.bias.abs().sum().item(), model.block1.layer[0].bn1.weight.sum().item())
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape) * 0.2)
print(model.block1.layer[0])
print(sum(p.numel() for p in model.parameters()), "weights")
images = pattern(2 * 3 * 32 * 32, 99).reshape(2, 3, 32, 32)
for name, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")), ("inductor", torch.compile(model))]:
    show(f"{name} train", run(images))
model.eval()
for name, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")), ("inductor", torch.compile(model))]:
    show(f"{name} eval", run(images))
model.train()
labels = torch.tensor([3, 7])
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
compiled = torch.compile(model)
for step in range(3):
    loss = torch.nn.functional.cross_entropy(compiled(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.5g}")
show("running mean", model.block2.layer[0].bn1.running_mean)
