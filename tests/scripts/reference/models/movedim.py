# Tensor.movedim / torch.moveaxis: dims moved to new places, the others in their order (a
# view), eagerly and compiled; PyTorch's errors for mismatched, repeated or outside dims.
import torch

x = torch.arange(24.0).reshape(2, 3, 4)
print(x.movedim(0, -1).shape, x.movedim(-1, 0).shape, torch.movedim(x, (0, 1), (2, 0)).shape)
print(torch.moveaxis(x, 1, 2).stride(), x.moveaxis([0, 2], [1, 0]).shape, x.movedim(1, 1).shape)
print(x.movedim(2, 0)[1])


@torch.compile
def channels_last_mean(images, weight):
    return ((images.movedim(1, -1) * weight).sum(-1).movedim(-1, 0) + 1).relu()


images = torch.linspace(-1.0, 1.0, 48).reshape(2, 3, 2, 4)
print(channels_last_mean(images, torch.tensor([0.5, -1.0, 2.0])))
for bad in [lambda: x.movedim((0, 1), (2,)), lambda: x.movedim((0, 0), (1, 2)), lambda: x.movedim(3, 0),
            lambda: x.movedim((0, 1), 2)]:
    try:
        bad()
    except (RuntimeError, IndexError, TypeError) as e:
        print(type(e).__name__, str(e).split("\n")[0])
