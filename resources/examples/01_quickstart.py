# Compile a small function, call it twice (the second call hits the cache), then with a
# new shape (a recompile that makes the batch dimension dynamic).
import torch


@torch.compile(backend="inductor")
def scaled_relu(x, bias):
    y = x * 2.0 + bias
    return torch.relu(y - 1.0)


x = torch.arange(6.0).view(2, 3)
bias = torch.tensor([0.5, -0.5, 1.0])
print(scaled_relu(x, bias))
print(scaled_relu(x, bias))
print(scaled_relu(torch.ones(4, 3), bias))
