"""Timing shared by the benchmark scripts (each runs as `python benchmarks/<script>.py`, so this folder
is on the import path)."""
import time


def best_of(fn, repeat: int = 3) -> float:
    """The shortest wall time of `repeat` calls: the least disturbed by other jobs on a shared machine."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)
