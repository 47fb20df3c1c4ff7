# torch.utils.data.dataset: where PyTorch defines the datasets; here the same classes as
# torch.utils.data's.
from torch.utils.data import ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split  # noqa: F401
