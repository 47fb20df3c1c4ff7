# Runs lukemelas/EfficientNet-PyTorch's EfficientNet (efficientnet_pytorch/ beside this file:
# its namedtuple parameters with defaults set through __new__.__defaults__, the block
# decoder's regular expressions, static "same" padding, squeeze-and-excitation, drop connect)
# scaled down (width and depth 0.25) on 32x32 images. Eagerly with its memory-efficient Swish,
# a custom torch.autograd.Function (forward and a backward), then with the plain Swish through
# the shared protocol: eager, aot_eager and inductor in training and evaluation mode, and three
# compiled SGD steps. Every parameter and input is a closed formula.
import os
import sys

import torch

from efficientnet_pytorch import EfficientNet

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import check_classifier, pattern, show  # tests/real_models/driver_support.py

images = pattern(2 * 3 * 32 * 32, 5).reshape(2, 3, 32, 32)
labels = torch.tensor([3, 7])
model = EfficientNet.from_name("efficientnet-b0", width_coefficient=0.25, depth_coefficient=0.25, image_size=32,
                               num_classes=10, dropout_rate=0.0, drop_connect_rate=0.0)
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape) * 0.2)
model.eval()
show("memory-efficient swish eval", model(images))
model.train()
loss = torch.nn.functional.cross_entropy(model(images), labels)
loss.backward()
show("memory-efficient swish head norm bias grad", model._bn1.bias.grad)
model.set_swish(memory_efficient=False)
model.zero_grad()
check_classifier("EfficientNet-b0(0.25x)", model, images, labels, 0.2)
