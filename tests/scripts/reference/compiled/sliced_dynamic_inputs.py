# A dynamic input that is a slice of a wider tensor: after a size change its row stride is a
# symbol of its own (not its row length), read from each call's input, so slices of other
# widths reuse the graph; a contiguous input or a transposed one recompiles, as in PyTorch 2.15.
import torch


def scale(x):
    return x * 2 + 1


def rows(x, w):
    return torch.nn.functional.embedding(x, w).sum(-1)


def reshaped(x):
    return x.reshape(-1) + 1


def laid_out(values, stride):
    """`values` in a tensor of its own with these strides (a view's base would be guarded too)."""
    out = torch.empty_strided(values.shape, stride)
    out.copy_(values)
    return out


torch.manual_seed(0)
wide = torch.arange(18.0).reshape(2, 9).clone()
compiled = torch.compile(scale, backend="inductor")
print(compiled(wide[:, :5].clone()))
print(compiled(wide[:, :3].clone()))
print(compiled(wide[:, :4]))
print(compiled(wide[:, 2:7]))
print(compiled(wide[:, 1:3]))
print(compiled(laid_out(wide[:, :3], (1, 2))))
print(compiled(laid_out(wide[:, :3], (6, 2))))
print(compiled(laid_out(wide[:, :4], (12, 3))))

weights = torch.randn(12, 3)
tokens = torch.tensor([[1, 5, 2, 9, 3, 7], [4, 4, 0, 10, 7, 11]])
looked_up = torch.compile(rows, backend="inductor")
print(torch.allclose(looked_up(tokens[:, :4], weights), rows(tokens[:, :4], weights)))
print(torch.allclose(looked_up(tokens[:, 1:3], weights), rows(tokens[:, 1:3], weights)))
print(torch.allclose(looked_up(tokens[:, :5], weights), rows(tokens[:, :5], weights)))

flat = torch.compile(reshaped, backend="inductor")
print(flat(wide[:, :4]))
print(flat(wide[:, :2]))
print(flat(wide[:, 3:8]))
