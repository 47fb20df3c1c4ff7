"""The workloads of bench_gpu under real torch.compile (inductor, Triton) on the same GPU,
timed the same way: CUDA events around batches of calls, the median batch, against a
device-to-device copy measured in the same run. Run outside CI, on the GPU machine:

    python3 bench/scripts/torch_compile_gpu.py [batches [name-part]]

With a name part, only the workloads whose names contain it.
"""
import sys

import torch
import torch.nn.functional as F

from torch_chains import chain, chain_transcendental


def median_ms(fn, batches, calls):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(calls):
        fn()
    times = []
    for _ in range(batches):
        start.record()
        for _ in range(calls):
            fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / calls)
    return sorted(times)[len(times) // 2]


def main():
    batches = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    torch.manual_seed(0)
    dev = "cuda"
    src = torch.ones(1 << 28, device=dev)  # 1 GiB
    dst = torch.empty_like(src)
    copy = 2 * src.numel() * 4 / (median_ms(lambda: dst.copy_(src), batches, 10) * 1e-3)
    del src, dst
    props = torch.cuda.get_device_properties(0)
    print(f"{props.name}; torch {torch.__version__}; copy bandwidth (copy_, read + write): {copy / 1e9:.0f} GB/s\n")

    n = 64 << 20
    x = torch.randn(n, device=dev)
    s1 = torch.randn(8192, 8192, device=dev)
    s2 = torch.randn(65536, 1024, device=dev)
    g, b = torch.randn(1024, device=dev), torch.randn(1024, device=dev)
    big = torch.randn(256 << 20, device=dev)
    a, w, bias = torch.randn(8192, 1024, device=dev), torch.randn(1024, 1024, device=dev), torch.randn(1024, device=dev)
    workloads = [
        (f"pointwise chain (10 ops) {n >> 20}M f32", chain, (x,), 8.0 * n),
        (f"pointwise chain (10 ops, exp/sin/tanh) {n >> 20}M f32", chain_transcendental, (x,), 8.0 * n),
        ("softmax 8192x8192", lambda t: torch.softmax(t, -1), (s1,), 8.0 * s1.numel()),
        ("softmax 65536x1024", lambda t: torch.softmax(t, -1), (s2,), 8.0 * s2.numel()),
        ("layer_norm 65536x1024", lambda t, g, b: F.layer_norm(t, (1024,), g, b), (s2, g, b), 8.0 * s2.numel()),
        ("sum over 256M f32", lambda t: t.sum(), (big,), 4.0 * big.numel()),
        ("linear(1024x1024)+bias+gelu, 8192 rows", lambda t, w, c: F.gelu(F.linear(t, w, c)), (a, w, bias),
         4.0 * (a.numel() + w.numel() + 8192 * 1024)),
    ]
    print(f"{'workload':48} {'compiled ms':>12} {'GB/s':>9} {'of copy':>8}")
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    for name, fn, args, nbytes in workloads:
        if only not in name:
            continue
        compiled = torch.compile(fn)
        ms = median_ms(lambda: compiled(*args), batches, 20)
        gbs = nbytes / (ms * 1e-3)
        print(f"{name:48} {ms:12.3f} {gbs / 1e9:9.0f} {100 * gbs / copy:7.0f}%")


if __name__ == "__main__":
    main()
