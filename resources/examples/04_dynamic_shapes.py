# Automatic dynamic shapes: the second size recompiles with a symbolic dim (s0); every
# later size reuses that entry.
# Run with: fusescope-cli run 04_dynamic_shapes.py --logs recompiles,dynamic
import torch


@torch.compile(backend="eager")
def normalise(x):
    return (x - x.mean()) / (x.amax() - x.amin())


for n in [8, 9, 10, 11]:
    print(n, normalise(torch.arange(float(n))))
