# Fusescope real-model corpus: milesial/Pytorch-UNet, unet/__init__.py at commit 21d7850f (github.com/milesial/Pytorch-UNet).
# Verbatim below this header; nothing changed.
from .unet_model import UNet
