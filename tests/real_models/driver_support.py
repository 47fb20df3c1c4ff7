# What the drivers beside it share (each main.py puts this folder on sys.path, as a script
# reaching a helper above its own folder does): parameters and inputs by an exact closed
# formula, no random numbers, and one line of rounded statistics per output.
import torch


def pattern(count, seed):
    """count values in [-0.5, 0.5), the same in every framework: a multiplicative hash mod 1009."""
    return ((torch.arange(count) * 7919 + seed * 104729) % 1009).float() / 1009 - 0.5


def show(label, tensor):
    tensor = tensor.detach()
    print(f"{label}: {tuple(tensor.shape)} sum {tensor.sum().item():.5g} abs mean {tensor.abs().mean().item():.5g} "
          f"first {tensor.flatten()[0].item():.5g}")


def check_classifier(name, model, inputs, targets, scale, show=show):
    """The protocol several drivers share: every parameter pattern() * scale; the model's size;
    its outputs eagerly, under aot_eager and under inductor, in training and in evaluation
    mode; then three compiled SGD steps of a cross-entropy against targets."""
    with torch.no_grad():
        for index, param in enumerate(model.parameters()):
            param.copy_(pattern(param.numel(), index).reshape(param.shape) * scale)
    print(name, sum(p.numel() for p in model.parameters()), "weights,", len(list(model.modules())), "modules")
    for mode in ("train", "eval"):
        model.train(mode == "train")
        for backend, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")),
                             ("inductor", torch.compile(model))]:
            show(f"{name} {mode} {backend}", run(inputs))
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    compiled = torch.compile(model)
    for step in range(3):
        loss = torch.nn.functional.cross_entropy(compiled(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        # Four digits: after a step the weights carry the backward's float32 rounding, which
        # differs between two correct builds (PyTorch's own kernels differ between AVX2 and
        # AVX-512 hosts) by a few parts in a million; five digits put some losses on a boundary.
        print(f"{name} step {step} loss {loss.item():.4g}")
