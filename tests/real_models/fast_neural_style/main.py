# Runs pytorch/examples' fast neural style TransformerNet (transformer_net.py beside this
# file, verbatim) on a small image: every parameter and input is a closed formula (integer
# arithmetic, well mixed: smooth waves leave the instance norms nearly constant channels to
# normalise, and float32 then strays from float64 by half), so real PyTorch and Fusescope
# print the same rounded statistics eagerly, compiled (aot_eager and
# inductor) and over three compiled SGD steps towards a target image (SGD, not Adam: the
# convolution biases before each InstanceNorm have a gradient of zero up to rounding, which
# Adam's first step would turn into +-lr).
import os
import sys

import torch

from transformer_net import TransformerNet

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern  # tests/real_models/driver_support.py


def show(label, tensor, digits=5):
    tensor = tensor.detach()
    print(f"{label}: shape {tuple(tensor.shape)} sum {tensor.sum().item():.{digits}g} "
          f"abs mean {tensor.abs().mean().item():.{digits}g} first {tensor.flatten()[0].item():.{digits}g}")


model = TransformerNet()
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape) * 0.1)
print(model.in1, model.deconv1, len(list(model.parameters())))
image = pattern(3 * 16 * 16, 99).reshape(1, 3, 16, 16)

show("eager", model(image))
for backend in ("aot_eager", "inductor"):
    show(backend, torch.compile(model, backend=backend)(image))

target = torch.cos(torch.arange(3 * 16 * 16, dtype=torch.float32) * 0.02).reshape(1, 3, 16, 16)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
compiled = torch.compile(model)
for step in range(3):
    loss = torch.nn.functional.mse_loss(compiled(image), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4g}")
# Four digits after training, as driver_support.check_classifier says why.
show("trained conv1", model.conv1.conv2d.weight, digits=4)
