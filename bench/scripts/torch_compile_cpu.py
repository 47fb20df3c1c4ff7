"""The workloads of bench_inductor under real torch.compile (inductor, C++/OpenMP) on the
same CPU, timed the same way: best of N calls after a warm-up. The milliseconds compare
with a bench_inductor run beside it, which also measures each row's limit. Run outside CI:

    python3 bench/scripts/torch_compile_cpu.py [repeats [name-part]]

With a name part, only the workloads whose names contain it. Inputs are float32 with the
shapes bench_inductor uses; its rows and these have the same names.
"""
import sys
import time

import torch
import torch.nn.functional as F

from torch_chains import chain, chain_transcendental


def best_seconds(fn, repeats):
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def moments(x):
    return x.mean(dim=1), x.var(dim=1), x.t().sum(dim=0)


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    torch.manual_seed(0)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads\n")

    n = 16 << 20
    x = torch.randn(n)
    square = torch.randn(4096, 4096)
    rows = torch.randn(8192, 1024)
    g, b = torch.randn(1024), torch.randn(1024)
    a, w, bias = torch.randn(4096, 1024), torch.randn(1024, 1024), torch.randn(1024)
    big = torch.randn(64 << 20)
    m = square.numel()
    workloads = [  # name, function, inputs, bytes of minimum memory traffic
        (f"pointwise chain (10 ops) {n >> 20}M f32", chain, (x,), 8.0 * n),
        (f"pointwise chain (10 ops, exp/sin/tanh) {n >> 20}M f32", chain_transcendental, (x,), 8.0 * n),
        ("softmax 4096x4096", lambda t: torch.softmax(t, -1), (square,), 8.0 * m),
        ("log_softmax 4096x4096", lambda t: torch.log_softmax(t, -1), (square,), 8.0 * m),
        ("layer_norm 8192x1024", lambda t, g, b: F.layer_norm(t, (1024,), g, b), (rows, g, b), 8.0 * rows.numel()),
        ("sum over 64M f32", lambda t: t.sum(), (big,), 4.0 * big.numel()),
        ("sum(dim=0) of 4096x4096 (columns)", lambda t: t.sum(dim=0), (square,), 4.0 * m),
        ("var(dim=1) of 4096x4096", lambda t: t.var(dim=1), (square,), 4.0 * m),
        ("argmax(dim=1) of 4096x4096", lambda t: t.argmax(dim=1), (square,), 4.0 * m),
        ("mean, var, t().sum(0) of 4096x4096", moments, (square,), 4.0 * m),
        ("linear(1024x1024)+bias+gelu, 4096 rows", lambda t, w, c: F.gelu(F.linear(t, w, c)), (a, w, bias),
         4.0 * (a.numel() + w.numel() + 4096 * 1024)),
    ]
    print(f"{'workload':40} {'compiled ms':>12} {'GB/s':>9}")
    for name, fn, args, nbytes in workloads:
        if only not in name:
            continue
        compiled = torch.compile(fn)
        s = best_seconds(lambda: compiled(*args), repeats)
        gbs = nbytes / s
        print(f"{name:40} {s * 1e3:12.2f} {gbs / 1e9:9.1f}")


if __name__ == "__main__":
    main()
