from .blocks import ResidualBlock
from .model import TinyNet

__all__ = ["ResidualBlock", "TinyNet"]
