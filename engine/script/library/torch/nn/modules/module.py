# torch.nn.modules.module for Fusescope scripts: Module, the one torch.nn has.
from collections import OrderedDict

import torch

Module = torch.nn.Module

# The global hooks PyTorch runs around every module call (none registered here): Dynamo guards
# their types at each call it traces.
_global_backward_pre_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
