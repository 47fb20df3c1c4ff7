# What the drivers beside it share (each main.py puts this folder on sys.path, as a script
# reaching a helper above its own folder does): parameters and inputs by an exact closed
# formula, no random numbers, and one line of rounded statistics per output.
import torch


def pattern(count, seed):
    """count values in [-0.5, 0.5), the same in every framework: a multiplicative hash mod 1009."""
    return ((torch.arange(count) * 7919 + seed * 104729) % 1009).float() / 1009 - 0.5


def show(label, tensor):
    tensor = tensor.detach()
    print(f"{label}: {tuple(tensor.shape)} sum {tensor.sum().item():.5g} abs mean {tensor.abs().mean().item():.5g} "
          f"first {tensor.flatten()[0].item():.5g}")
