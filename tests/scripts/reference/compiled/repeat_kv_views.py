# A dim added in the middle, expanded, then merged with its neighbour (a grouped-query
# attention's repeat_kv): each form compiled must give eager's values.
import torch


def repeat_kv_indexing(x):
    return x[:, :, :, None, :].expand(2, 3, 2, 2, 4).reshape(2, 3, 4, 4)


def repeat_kv_unsqueeze(x):
    return x.unsqueeze(3).expand(2, 3, 2, 2, 4).reshape(2, 3, 4, 4)


def repeat_kv_contiguous(x):
    return x.unsqueeze(3).expand(2, 3, 2, 2, 4).contiguous().view(2, 3, 4, 4)


def repeat_kv_leading(x):
    return x.unsqueeze(2).expand(2, 3, 2, 2, 4).reshape(2, 6, 2, 4)


def expand_equal_sizes(x):
    return x[:, None, :].expand(3, 3, 3) * 10 + x[None, :, :]


x = torch.arange(2 * 3 * 2 * 4, dtype=torch.float32).reshape(2, 3, 2, 4)
for fn in [repeat_kv_indexing, repeat_kv_unsqueeze, repeat_kv_contiguous, repeat_kv_leading]:
    out = torch.compile(fn)(x)
    print(fn.__name__, out.shape, torch.equal(out, fn(x)))
    print(out[1, 2])
square = torch.arange(9.0).reshape(3, 3)
print(torch.compile(expand_equal_sizes)(square))
