# Loads saved_by_fusescope.pt (save_for_pytorch.py wrote it, in Fusescope) and prints it:
# make_fixtures.py runs it in PyTorch (saved_by_fusescope.torch.out), checkpoint_test.cpp in
# Fusescope, and the two must print the same.
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from net import Net  # noqa: E402

saved = torch.load(os.path.join(here, "saved_by_fusescope.pt"))
for key, value in saved.items():
    if key != "model":
        print(key, "->", value)
net = Net()
print(net.load_state_dict(saved["model"]))
net.eval()
print(net(torch.tensor([0, 3, 4, 1])))
saved["base"].add_(1)  # the view shares its storage
print(saved["view"])
print(type(saved["param"]).__name__, saved["param"].requires_grad)
