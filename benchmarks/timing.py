"""Timing shared by the benchmark scripts (each runs as `python benchmarks/<script>.py`, so this folder
is on the import path)."""
import resource
import time


def best_of(fn, repeat: int = 3) -> float:
    """The shortest wall time of `repeat` calls: the least disturbed by other jobs on a shared machine."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def best_of_with_cpu(fn, repeat: int = 3) -> tuple[float, float]:
    """(best wall time, best process CPU time over all threads) of `repeat` calls. On a shared machine the
    CPU time moves less with other jobs' load than the wall time does; a multi-threaded run can use more
    CPU than wall time."""
    walls, cpus = [], []
    for _ in range(repeat):
        before, start = _cpu(), time.perf_counter()
        fn()
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - before)
    return min(walls), min(cpus)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)     # microseconds, unlike os.times()' clock ticks
    return usage.ru_utime + usage.ru_stime
