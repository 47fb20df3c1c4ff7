"""Timing shared by the eager benchmark scripts, run alike by Fusescope and real PyTorch."""
import time


def median_ms(fn, repeats):
    """fn's median time over `repeats` calls in milliseconds, after one warm-up call (its
    first-call costs, allocation and library loading, are not the row's)."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    middle = len(times) // 2
    return times[middle] if len(times) % 2 else (times[middle - 1] + times[middle]) / 2
