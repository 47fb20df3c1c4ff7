# Fusescope real-model corpus: lukemelas/EfficientNet-PyTorch, efficientnet_pytorch/__init__.py at commit 7e8b0d31 (github.com/lukemelas/EfficientNet-PyTorch).
# Verbatim below this header; nothing changed.
__version__ = "0.7.1"
from .model import EfficientNet, VALID_MODELS
from .utils import (
    GlobalParams,
    BlockArgs,
    BlockDecoder,
    efficientnet,
    get_model_params,
)
