# Eager ops on cuda tensors: the same script under real PyTorch (its precompiled kernels) and
# under fusescope-cli run (single-op kernels generated and compiled on first use). Prints the
# milliseconds per call of each op after a warm-up call, and the first call's.
import time
import torch

x = torch.randn(8192, 8192, device="cuda")
w = torch.randn(8192, device="cuda")
b = torch.randn(8192, device="cuda")


def softmax(a):
    return torch.softmax(a, dim=-1)


def layer_norm(a):
    return torch.nn.functional.layer_norm(a, (8192,), w, b)


def add_mul(a):
    return a * 2 + 1


def row_sum(a):
    return a.sum(dim=1)


momentum_buffer = torch.zeros_like(x)


def momentum(a):  # SGD's momentum update, in place
    return momentum_buffer.mul_(0.9).add_(a, alpha=0.1)


for name, fn in [("softmax", softmax), ("layer_norm", layer_norm), ("add_mul", add_mul), ("row_sum", row_sum),
                 ("momentum (in place)", momentum)]:
    start = time.perf_counter()
    fn(x)
    torch.cuda.synchronize()
    first = (time.perf_counter() - start) * 1000
    calls = 20
    start = time.perf_counter()
    for i in range(calls):
        y = fn(x)
    torch.cuda.synchronize()
    ms = (time.perf_counter() - start) * 1000 / calls
    print(f"{name}: {ms:.3f} ms per call, first call {first:.1f} ms")
