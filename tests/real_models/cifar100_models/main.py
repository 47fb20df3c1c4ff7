# Runs six of weiaicunzai/pytorch-cifar100's CIFAR-100 models (models/ beside this file,
# verbatim; `models` is a namespace package, as in the repository): ResNet18 and its
# pre-activation and squeeze-and-excitation variants, MobileNet's depthwise-separable
# convolutions (at width 0.5), ShuffleNetV2's channel split and shuffle, and ResNet-in-ResNet
# (which initialises with nn.init.kaiming_normal, the deprecated name, and has dropout).
# Every parameter and input is a closed formula, so real PyTorch and Fusescope print the same
# eagerly (training and evaluation batch norm), compiled (aot_eager and inductor) and over
# three compiled SGD steps.
import os
import sys
import warnings

import torch

from models.mobilenet import mobilenet
from models.preactresnet import preactresnet18
from models.resnet import resnet18
from models.rir import resnet_in_resnet
from models.senet import seresnet18
from models.shufflenetv2 import shufflenetv2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import check_classifier, pattern  # tests/real_models/driver_support.py


def show(label, tensor):
    tensor = tensor.detach()
    print(f"{label}: {tuple(tensor.shape)} sum {tensor.sum().item():.4g} abs mean {tensor.abs().mean().item():.5g} "
          f"first {tensor.flatten()[0].item():.5g}")


images = pattern(2 * 3 * 32 * 32, 99).reshape(2, 3, 32, 32)
labels = torch.tensor([3, 97])
models = [("ResNet18", resnet18), ("PreActResNet18", preactresnet18), ("SEResNet18", seresnet18),
          ("MobileNet", lambda: mobilenet(alpha=0.5)), ("ShuffleNetV2", shufflenetv2),
          ("ResNetInResNet", resnet_in_resnet)]
for name, make in models:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = make()
    for message in sorted({f"{warning.category.__name__}: {warning.message}" for warning in caught}):
        print(f"{name} warns {sum(str(w.message) in message for w in caught)} times: {message}")
    for module in model.modules():  # RiR's dropout draws would differ from PyTorch's
        if isinstance(module, (torch.nn.Dropout, torch.nn.Dropout2d)):
            module.p = 0.0
    check_classifier(name, model, images, labels, 0.05, show)
