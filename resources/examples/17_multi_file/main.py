# A program in several files: this script imports the package tinynet beside it, whose
# modules import each other relatively. Every file the run imported travels in its bundle,
# and the workbench opens each in a tab: a graph node, graph break or guard made in
# tinynet/blocks.py shows there.
# Run with: fusescope-cli run 17_multi_file/main.py --bundle tinynet.fscope
import torch

from tinynet import TinyNet


def main():
    model = TinyNet(width=8, depth=2)
    with torch.no_grad():  # parameters by a formula: the same numbers under PyTorch
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (-1) ** i)
    compiled = torch.compile(model, backend="eager")
    x = torch.linspace(-1.0, 1.0, 16).reshape(2, 8)
    with torch.no_grad():
        print(compiled(x))
        print(torch.allclose(compiled(x), model(x)))


if __name__ == "__main__":
    main()
