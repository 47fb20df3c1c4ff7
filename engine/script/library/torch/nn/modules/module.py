# torch.nn.modules.module for Fusescope scripts: Module, the one torch.nn has.
import torch

Module = torch.nn.Module
