# torch.utils.data.dataloader: where PyTorch defines DataLoader; here the same class as
# torch.utils.data's.
from torch.utils.data import DataLoader, default_collate  # noqa: F401
