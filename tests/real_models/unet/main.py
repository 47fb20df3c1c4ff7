# Runs milesial/Pytorch-UNet's U-Net (unet/ beside this file, verbatim: a package whose
# __init__.py imports `.unet_model`), with transposed-convolution upsampling and with
# bilinear upsampling, on a 16x16 image: four downsampling steps to 1x1 and back, skip
# connections padded to size, in-place ReLUs. Every parameter and input is a closed formula.
# Prints eager, aot_eager and inductor outputs in training and evaluation mode, and three
# compiled SGD steps of a per-pixel cross-entropy.
import os
import sys

import torch

from unet import UNet

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern, show  # tests/real_models/driver_support.py


images = pattern(2 * 3 * 16 * 16, 99).reshape(2, 3, 16, 16)
masks = (torch.arange(2 * 16 * 16).reshape(2, 16, 16) * 7 // 5) % 2
for bilinear in (False, True):
    model = UNet(n_channels=3, n_classes=2, bilinear=bilinear)
    with torch.no_grad():
        for index, param in enumerate(model.parameters()):
            param.copy_(pattern(param.numel(), index).reshape(param.shape) * 0.05)
    name = f"UNet(bilinear={bilinear})"
    print(name, sum(p.numel() for p in model.parameters()), "weights,", len(list(model.modules())), "modules")
    for mode in ("train", "eval"):
        model.train(mode == "train")
        for backend, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")),
                             ("inductor", torch.compile(model))]:
            show(f"{name} {mode} {backend}", run(images))
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    compiled = torch.compile(model)
    for step in range(3):
        loss = torch.nn.functional.cross_entropy(compiled(images), masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"{name} step {step} loss {loss.item():.5g}")
