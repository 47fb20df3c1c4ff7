# Reading at positions another tensor holds: F.embedding, index_select, gather, nn.Embedding,
# and the errors PyTorch gives for bad indices.
import torch
import torch.nn.functional as F
w = torch.arange(12.0).reshape(4, 3)
i = torch.tensor([[0, 2], [3, 1]])
print(F.embedding(i, w))
print(torch.index_select(w, 0, torch.tensor([3, 0])))
print(w.index_select(1, torch.tensor([2])))
print(torch.gather(w, 1, torch.tensor([[2, 0], [1, 1], [0, 0], [2, 2]])))
print(w.gather(0, torch.tensor([[3, 0, 1]])))
e = torch.nn.Embedding(10, 3, padding_idx=0)
print(e)
print(e.weight.shape, e.weight[0])
print(torch.nn.Embedding(5, 2))
for bad in [lambda: F.embedding(torch.tensor([4]), w), lambda: F.embedding(torch.tensor([1.0]), w),
            lambda: torch.index_select(w, 0, torch.tensor([[0]])), lambda: torch.index_select(w, 0, torch.tensor([9])),
            lambda: torch.gather(w, 1, torch.tensor([[5]])), lambda: torch.gather(w, 1, torch.tensor([0])),
            lambda: torch.gather(w, 1, torch.tensor([[0.0]])), lambda: torch.index_select(w, 0, torch.tensor([0.0])),
            lambda: torch.index_select(w, 2, torch.tensor([0])), lambda: F.embedding(torch.tensor([-1]), w)]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)


# Compiled: the same reads as loads at computed positions, fused with the arithmetic around.
def picks(w, i):
    return F.embedding(i, w) * 2, w.index_select(0, i[0]) + 1, w.gather(1, (i % 3).repeat(2, 1)).relu()


print(all(torch.equal(a, b) for a, b in zip(torch.compile(picks)(w, i), picks(w, i))))
