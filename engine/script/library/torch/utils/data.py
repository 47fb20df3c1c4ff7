# torch.utils.data for Fusescope scripts: Dataset, TensorDataset, Subset, random_split and a
# single-process DataLoader (batch_size, shuffle by torch.randperm, drop_last, collate_fn)
# whose default collation stacks tensors and numbers as PyTorch's default_collate does.
import torch


class Dataset:
    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    def __init__(self, *tensors):
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    def __init__(self, datasets):
        self.datasets = list(datasets)

    def __len__(self):
        return sum(len(d) for d in self.datasets)

    def __getitem__(self, index):
        if index < 0:
            index += len(self)
        for dataset in self.datasets:
            if index < len(dataset):
                return dataset[index]
            index -= len(dataset)
        raise IndexError("absolute value of index should not exceed dataset length")


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index):
        return self.dataset[self.indices[index]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = torch.randperm(len(dataset)).tolist()
    subsets, start = [], 0
    for length in lengths:
        subsets.append(Subset(dataset, order[start:start + length]))
        start += length
    return subsets


def default_collate(batch):
    first = batch[0]
    if isinstance(first, torch.Tensor):
        return torch.stack(batch, 0)
    if isinstance(first, bool):
        return torch.tensor(batch)
    if isinstance(first, (int, float)):
        return torch.tensor(batch, dtype=torch.float64 if isinstance(first, float) else torch.int64)
    if isinstance(first, str):
        return batch
    if isinstance(first, dict):
        return {key: default_collate([item[key] for item in batch]) for key in first}
    if isinstance(first, (tuple, list)):
        return [default_collate(list(column)) for column in zip(*batch)]
    raise TypeError(f"default_collate: batch must contain tensors, numbers, dicts or lists; found {type(first)}")


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None, generator=None,
                 *, prefetch_factor=None, persistent_workers=False, pin_memory_device=""):
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.sampler = sampler
        self.drop_last = drop_last
        self.num_workers = num_workers
        self.collate_fn = collate_fn if collate_fn is not None else default_collate

    def _indices(self):
        if self.sampler is not None:
            return list(self.sampler)
        if self.shuffle:
            return torch.randperm(len(self.dataset)).tolist()
        return list(range(len(self.dataset)))

    def __iter__(self):
        indices = self._indices()
        if self.batch_size is None:
            for index in indices:
                yield self.dataset[index]
            return
        for start in range(0, len(indices), self.batch_size):
            chunk = indices[start:start + self.batch_size]
            if len(chunk) < self.batch_size and self.drop_last:
                return
            yield self.collate_fn([self.dataset[index] for index in chunk])

    def __len__(self):
        count = len(self.dataset)
        if self.batch_size is None:
            return count
        return count // self.batch_size if self.drop_last else (count + self.batch_size - 1) // self.batch_size
