"""Core runtime benchmarks (the numbers quoted in docs/runtime-core.md).

    python benchmarks/bench_core.py [--cold]

1. warm launch of an empty kernel (thread start, run, join, result collection) on 1, 8 and 72 cores;
2. a 3-task SuperKernel on 8 AIV cores with early start (two split barriers);
3. hang report latency: every core blocks at once on a flag nobody sets; time from run start to HangError;
4. --cold: building libascgen_core.so from scratch in an empty cache.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.core import harness as h  # noqa: E402

from ascgen.errors import HangError  # noqa: E402


def timed(fn, count: int) -> tuple[float, float]:
    samples = []
    for _ in range(count):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples), min(samples)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cold", action="store_true", help="also time a cold build of the core library")
    args = parser.parse_args()
    k = h.Kernels("basic.cpp")
    rows = []
    for cores in (1, 8, 72):
        task = k.task("k_empty", cores)
        for _ in range(20):
            h.run([task])
        med, best = timed(lambda: h.run([task]), 300)
        rows.append((f"warm launch, empty kernel, {cores} cores", f"{med * 1e3:.3f} ms (best {best * 1e3:.3f})"))
    tasks = [k.task("k_empty", 8) for _ in range(3)]
    med, best = timed(lambda: h.run(tasks, options="early-start=1"), 200)
    rows.append(("SuperKernel, 3 empty tasks on 8 AIV", f"{med * 1e3:.3f} ms (best {best * 1e3:.3f})"))

    def hang():
        try:
            h.run([k.task("k_wait_never_set", 1)])
        except HangError:
            return
        raise AssertionError("no hang reported")
    med, best = timed(hang, 50)
    rows.append(("hang report: run start -> HangError", f"{med * 1e3:.3f} ms (best {best * 1e3:.3f})"))
    if args.cold:
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, ASCGEN_CACHE_DIR=tmp)
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", "from ascgen.runtime import core; core.ensure_loaded()"],
                           check=True, env=env, cwd=ROOT)
            rows.append(("cold build of libascgen_core.so", f"{time.perf_counter() - t0:.1f} s"))
    width = max(len(r[0]) for r in rows)
    print(f"| {'measure'.ljust(width)} | result |\n|{'-' * (width + 2)}|---|")
    for name, value in rows:
        print(f"| {name.ljust(width)} | {value} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
