# Runs kenshohara/3D-ResNets-PyTorch's video ResNets (resnet.py beside this file, verbatim):
# ResNet-10 and ResNet-18 of basic blocks at a quarter of the width, with 1x1x1-convolution
# shortcuts (type B, the repository's default), over clips of four 16x16 frames: Conv3d,
# BatchNorm3d, MaxPool3d and AdaptiveAvgPool3d. Every parameter and input is a closed
# formula. Prints eager, aot_eager and inductor outputs in training and evaluation mode (to 4
# digits: a 3-D convolution sums in another order than PyTorch's), and three compiled SGD steps.
import os
import sys

import torch

from resnet import generate_model

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import check_classifier, pattern  # tests/real_models/driver_support.py


def show(label, tensor):
    tensor = tensor.detach()
    print(f"{label}: {tuple(tensor.shape)} sum {tensor.sum().item():.4g} abs mean {tensor.abs().mean().item():.4g} "
          f"first {tensor.flatten()[0].item():.4g}")


clips = pattern(2 * 3 * 4 * 16 * 16, 99).reshape(2, 3, 4, 16, 16)
labels = torch.tensor([1, 4])
for depth in (10, 18):
    model = generate_model(depth, widen_factor=0.25, n_classes=5, conv1_t_size=3)
    name = f"ResNet{depth}"
    check_classifier(name, model, clips, labels, 0.1, show)
