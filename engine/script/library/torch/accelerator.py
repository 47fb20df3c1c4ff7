# torch.accelerator: the current accelerator device, where there is one (a CUDA GPU here).
import torch


class _Stream:
    """The accelerator's stream as far as Fusescope keeps one: its work runs in order, and no
    graph capture (CUDA graphs) is ever under way."""

    def __init__(self, device):
        self.device = device

    def is_capturing(self):
        return False

    def synchronize(self):
        torch.cuda.synchronize()


def is_available():
    return torch.cuda.is_available()


def device_count():
    return torch.cuda.device_count()


def current_accelerator(check_available=False):
    """CUDA, the accelerator Fusescope is built for; None, asked to check, where no GPU is."""
    if check_available and not is_available():
        return None
    return torch.device("cuda")


def current_device_index():
    return torch.cuda.current_device()


def current_stream(device=None):
    if not is_available():
        raise RuntimeError("torch.accelerator.current_stream: no accelerator is available")
    return _Stream(torch.device("cuda"))


def synchronize(device=None):
    torch.cuda.synchronize()
