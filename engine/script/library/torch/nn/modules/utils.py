# torch.nn.modules.utils for Fusescope scripts: PyTorch's argument normalisers, an iterable
# made a tuple as it is, anything else a tuple of n copies.
from itertools import repeat


def _ntuple(n, name="parse"):
    def parse(x):
        try:  # collections.abc.Iterable, which Fusescope does not have yet, is what tuple() accepts
            return tuple(x)
        except TypeError:
            return tuple(repeat(x, n))

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")
