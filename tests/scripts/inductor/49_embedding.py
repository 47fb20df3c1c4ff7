import torch
import torch.nn.functional as F


# Embedding and index_select as loads at the position another tensor holds: 1-D and 2-D
# index tensors, int32 indices, a table that is a transposed view, repeated and computed
# rows, selection along an inner dim, and the read fused with the arithmetic around it.
def fn(ids, pairs, ids32, table, wide):
    return (F.embedding(ids, table) * 2 + 1, F.embedding(pairs, table).sum(dim=-1), F.embedding(ids32, wide.t()),
            F.embedding(ids, table) + F.embedding(ids * 0 + 2, table), table.index_select(1, ids32).exp(),
            torch.index_select(wide.t(), 0, ids))


table = torch.linspace(-1.0, 1.0, 7 * 5).reshape(7, 5)
wide = torch.linspace(0.0, 3.0, 5 * 7).reshape(5, 7)
ids = torch.tensor([6, 0, 3, 3, 1])
pairs = torch.tensor([[0, 1], [6, 6], [2, 5]])
ids32 = torch.tensor([4, 2, 0], dtype=torch.int32)
expected = fn(ids, pairs, ids32, table, wide)
actual = torch.compile(fn)(ids, pairs, ids32, table, wide)
for a, e in zip(actual, expected):
    print(torch.allclose(a, e), a.shape, a.dtype)
