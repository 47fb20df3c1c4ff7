# Run by Fusescope: saves what load_in_pytorch.py reads back, in PyTorch (make_fixtures.py)
# and in Fusescope (checkpoint_test.cpp). Writes saved_by_fusescope.pt beside it, or the
# path in $FUSESCOPE_CHECKPOINT_OUT.
import collections
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from net import Net, set_state  # noqa: E402

base = torch.arange(12, dtype=torch.float64).reshape(3, 4) / 8
saved = {
    "model": set_state(Net()).state_dict(),
    "base": base,
    "view": base[1:, ::2],
    "param": torch.nn.Parameter(torch.tensor([[1.5, -2.0]])),
    "ints": torch.tensor([[1, -2], [3, 2**40]]),
    "int32": torch.tensor([5, -6], dtype=torch.int32),
    "mask": torch.tensor([True, False]),
    "half": torch.tensor([0.5, -1.25], dtype=torch.float16),
    "bf16": torch.tensor([0.5, -1.25], dtype=torch.bfloat16),
    "step": 3,
    "big": 2**40,
    "negative": -70000,
    "lr": 0.001,
    "name": "net",
    "shape": torch.Size([2, 3]),
    "dtype": torch.float16,
    "device": torch.device("cpu"),
    "ids": {1, 2},
    "blob": b"\x00fuse",
    "nested": collections.OrderedDict([("inner", {"t": torch.ones(2)}), ("list", [torch.tensor([9]), None, (True, 2.5)])]),
}
torch.save(saved, os.environ.get("FUSESCOPE_CHECKPOINT_OUT", os.path.join(here, "saved_by_fusescope.pt")))
