# Runs pytorch/examples' MNIST Net and its own train() and test() (examples_mnist/main.py,
# verbatim but for its torchvision import) on eight 28x28 images made by a closed formula,
# through torch.utils.data: eagerly, compiled (aot_eager and inductor) and one compiled
# training epoch with the example's Adadelta and StepLR. Dropout's p is set to 0 (its draws
# are not PyTorch's numbers), so real PyTorch and Fusescope print the same.
import os
import sys
import argparse

import torch
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset

from examples_mnist.main import Net, test, train

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern  # tests/real_models/driver_support.py


model = Net()
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape) * 0.1)
model.dropout1.p = model.dropout2.p = 0.0
images = pattern(8 * 28 * 28, 42).reshape(8, 1, 28, 28)
labels = torch.arange(8) * 3 % 10
print(model)

for name, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")), ("inductor", torch.compile(model))]:
    out = run(images)
    print(f"{name}: {tuple(out.shape)} sum {out.sum().item():.5g} predictions {out.argmax(1).tolist()}")

args = argparse.Namespace(log_interval=1, dry_run=False)
loader = DataLoader(TensorDataset(images, labels), batch_size=4)
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
compiled = torch.compile(model)
for epoch in range(1, 3):
    train(args, compiled, torch.device("cpu"), loader, optimizer, epoch)
    test(compiled, torch.device("cpu"), loader)
    scheduler.step()
