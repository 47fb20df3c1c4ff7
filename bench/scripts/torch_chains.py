"""The pointwise chains bench_inductor and bench_gpu build op by op, as PyTorch functions,
for the scripts that time them under real torch.compile."""
import torch


def chain(x):
    y = torch.relu(x * 2.0 + 1.0) - 0.5
    y = (y * y).abs() + x
    return torch.maximum(-(y * 3.0), x)


def chain_transcendental(x):
    y = torch.relu(x * 2.0 + 1.0) - 0.5
    y = torch.sin(torch.exp(y).abs())
    return torch.maximum(torch.tanh(y * 3.0), x)
