# torch.nn.parameter for Fusescope scripts: Parameter, the one torch.nn has.
import torch

Parameter = torch.nn.Parameter
