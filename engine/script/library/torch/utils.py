# torch.utils for Fusescope scripts: its submodule data (torch/utils/data.py).
