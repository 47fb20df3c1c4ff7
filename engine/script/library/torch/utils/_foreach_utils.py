# torch.utils._foreach_utils for Fusescope scripts: the devices PyTorch's foreach and fused
# optimizer kernels run on, written as PyTorch 2.15's (Dynamo traces them in an optimizer's step).
import torch


def _get_foreach_kernels_supported_devices():
    r"""Return the device type list that supports foreach kernels."""
    return ["cuda", "xpu", "mtia", torch._C._get_privateuse1_backend_name()]


def _get_fused_kernels_supported_devices():
    r"""Return the device type list that supports fused kernels in optimizer."""
    return [
        "mps",
        "cuda",
        "xpu",
        "hpu",
        "cpu",
        "mtia",
        torch._C._get_privateuse1_backend_name(),
    ]
