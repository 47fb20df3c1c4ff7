# torch.nn.modules for Fusescope scripts: the submodules model code imports from it, module
# (torch.nn.modules/module.py) and utils (torch/nn/modules/utils.py).
