# Runs pytorch/examples' time-sequence predictor (train.py beside this file, verbatim but for
# its numpy and matplotlib imports): two LSTMCells and a Linear in float64 over sine waves,
# predicting ahead (`future`). The parameters are a closed formula, so real PyTorch and
# Fusescope print the same eagerly, compiled (aot_eager and inductor) and over three compiled
# SGD steps (the example trains with LBFGS, which Fusescope does not have yet).
import math

import torch

from train import Sequence


def pattern(count, seed):
    return ((torch.arange(count) * 7919 + seed * 104729) % 1009).double() / 1009 - 0.5


seq = Sequence().double()
with torch.no_grad():
    for index, param in enumerate(seq.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape))
print(seq)
waves = torch.sin(torch.arange(3 * 12, dtype=torch.float64).reshape(3, 12) / 4.0 + torch.tensor([[0.0], [1.0], [2.0]]))
inputs, targets = waves[:, :-1], waves[:, 1:]
for name, run in [("eager", seq), ("aot_eager", torch.compile(seq, backend="aot_eager")), ("inductor", torch.compile(seq))]:
    out = run(inputs, future=3)
    print(f"{name}: {tuple(out.shape)} {out.dtype} sum {out.sum().item():.6g} last {[round(v, 5) for v in out[:, -1].tolist()]}")

optimizer = torch.optim.SGD(seq.parameters(), lr=0.5)
compiled = torch.compile(seq)
for step in range(3):
    loss = torch.nn.functional.mse_loss(compiled(inputs), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.6g}")
print("pi check", round(math.pi, 4))
