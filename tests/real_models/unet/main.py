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
from driver_support import check_classifier, pattern  # tests/real_models/driver_support.py


images = pattern(2 * 3 * 16 * 16, 99).reshape(2, 3, 16, 16)
masks = (torch.arange(2 * 16 * 16).reshape(2, 16, 16) * 7 // 5) % 2
for bilinear in (False, True):
    model = UNet(n_channels=3, n_classes=2, bilinear=bilinear)
    name = f"UNet(bilinear={bilinear})"
    check_classifier(name, model, images, masks, 0.05)
