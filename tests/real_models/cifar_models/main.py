# Runs two of kuangliu/pytorch-cifar's CIFAR-10 models (resnet.py and vgg.py beside this file,
# verbatim): ResNet18's basic blocks with 1x1 shortcuts and VGG11's configuration list. Every parameter and input is a closed formula, so real
# PyTorch and Fusescope print the same eagerly (training and evaluation batch norm), compiled
# (aot_eager and inductor) and over three compiled SGD steps.
import os
import sys

import torch

from resnet import ResNet18
from vgg import VGG

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import check_classifier, pattern  # tests/real_models/driver_support.py


def show(label, tensor):
    tensor = tensor.detach()
    print(f"{label}: {tuple(tensor.shape)} sum {tensor.sum().item():.5g} first {tensor.flatten()[0].item():.5g}")


images = pattern(2 * 3 * 32 * 32, 99).reshape(2, 3, 32, 32)
labels = torch.tensor([1, 8])
for name, make in [("ResNet18", ResNet18), ("VGG11", lambda: VGG("VGG11"))]:
    model = make()
    check_classifier(name, model, images, labels, 0.1, show)
