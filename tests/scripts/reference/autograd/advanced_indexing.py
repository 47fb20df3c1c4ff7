# Indexing a tensor with tensors and lists (advanced indexing): the picked dims take the
# broadcast shape of the indices, the gradient goes back to each picked element (summed
# where picked twice), out-of-range and non-integer indices raise, and compiled it is one graph.
import torch

x = torch.arange(24.0).reshape(2, 3, 4)
print(x[torch.tensor([1, 0, 1])].shape, x[None, :, [0]].shape, x[:, torch.tensor([[0, 1], [2, 2]])].shape)
print(x[[1, 0]][:, 0])
print(x[:, [2, 0]])
print(x[..., torch.tensor([-1, 0])])
print(x[torch.tensor([0, 1]), torch.tensor([2, 0])])
print(x[torch.tensor([[0], [1]]), torch.tensor([2, 0])])
print(x[:, torch.tensor(1)])

rows = torch.linspace(-1, 1, 12).reshape(4, 3).requires_grad_()
picked = rows[torch.tensor([3, 1, 3])]
print(picked.grad_fn.name())
(picked * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(rows.grad)

logits = torch.linspace(-2, 2, 15).reshape(5, 3).requires_grad_()
targets = torch.tensor([0, 2, 1, 1, 0])
chosen = logits[torch.arange(5), targets]
print(chosen)
(-chosen.log_softmax(dim=0)).sum().backward()
print(logits.grad)

for bad in (lambda: x[torch.tensor([5])], lambda: x[:, [0, -4]], lambda: x[torch.tensor([0.5])]):
    try:
        bad()
    except IndexError as e:
        print("IndexError:", e)


@torch.compile
def scaled_columns(t, columns):
    return t[:, columns] * 2


print(scaled_columns(x, torch.tensor([2, 0])))


@torch.compile
def picked_rows(t, rows):
    return (t[rows] * t[rows]).sum()


w = torch.linspace(0, 1, 6).reshape(3, 2).requires_grad_()
picked_rows(w, torch.tensor([1, 1, 0])).backward()
print(w.grad)
