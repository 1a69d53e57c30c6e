"""Runtime benchmarks: emulated throughput vs numpy, launch overhead, load and compile times, and leaks.

    python benchmarks/bench_runtime.py            # prints a markdown table (the README "Benchmarks" section)

1. add+relu on 2**24 float32 over 32 emulated cores (a builder kernel, emitted and compiled) vs numpy on
   the same math in the same process: ratio = emulator / numpy (target <= 1.0, must be <= 2).
2. warm launch overhead of a tiny 8-core kernel (target <= 1 ms).
3. cached load of an already compiled source, in a fresh process and again in the same process (<= 50 ms).
4. cold compile of a generated kernel (its text made unique so the cache misses; target <= 3 s).
5. 1000 launches: RSS and OS thread count before and after (no growth).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ascgen.codegen.emit import emit  # noqa: E402
from ascgen.builder import Kernel, Relu  # noqa: E402
from ascgen.runtime import load  # noqa: E402
from timing import best_of  # noqa: E402 - benchmarks/timing.py, beside this script

PRODUCT = "ascend950"          # 32 AIC + 64 AIV: 32 vector blocks fit the chip
TINY = textwrap.dedent("""\
    #include "kernel_operator.h"
    extern "C" __global__ __aicore__ void tiny(GM_ADDR out) {
        AscendC::GlobalTensor<int32_t> o;
        o.SetGlobalBuffer((__gm__ int32_t*)out, 8);
        o.SetValue(AscendC::GetBlockIdx(), (int32_t)AscendC::GetBlockIdx());
    }
    """)


def add_relu_kernel(blocks: int = 32, tile: int = 8192) -> Kernel:
    k = Kernel("bench_add_relu", block_dim=blocks, tile_length=tile, buffer_num=2)
    x = k.input("x", "float32")
    y = k.input("y", "float32")
    k.output("z", Relu(x + y))
    return k



def rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def os_threads() -> int:
    return len(os.listdir("/proc/self/task"))


def bench_throughput(n: int, repeat: int):
    kernel = add_relu_kernel()
    mod = load(emit(kernel, PRODUCT), PRODUCT, filename="bench_add_relu.cpp")
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    z = np.empty_like(x)
    ref = np.empty_like(x)
    mod.launch(kernel.name, kernel.block_dim, x, y, z, n)            # warm up (page faults, pool)
    assert np.array_equal(z, np.maximum(x + y, 0)), "the emulated kernel is wrong"

    def numpy_same_math():
        np.add(x, y, out=ref)
        np.maximum(ref, 0, out=ref)
    t_emu = best_of(lambda: mod.launch(kernel.name, kernel.block_dim, x, y, z, n), repeat)
    t_np = best_of(numpy_same_math, repeat)
    return t_emu, t_np


def bench_launch_overhead(count: int):
    mod = load(TINY, PRODUCT, filename="tiny.cpp")
    out = np.zeros(8, np.int32)
    for _ in range(20):
        mod.launch("tiny", 8, out)
    assert list(out) == list(range(8))
    samples = []
    for _ in range(count):
        t = time.perf_counter()
        mod.launch("tiny", 8, out)
        samples.append(time.perf_counter() - t)
    return statistics.median(samples), min(samples)


def bench_cached_load():
    """(imports, first load in a fresh process incl. loading the core library, repeated load)."""
    code = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        t0 = time.perf_counter()
        import numpy
        from ascgen.runtime import load
        t1 = time.perf_counter()
        load({TINY!r}, {PRODUCT!r}, filename="tiny.cpp")
        print(t1 - t0, time.perf_counter() - t1)
        """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    again = best_of(lambda: load(TINY, PRODUCT, filename="tiny.cpp"), 5)
    return float(out[0]), float(out[1]), again


def bench_cold_compile():
    """(wall seconds, compiler CPU seconds) of load() on a generated kernel the cache has never seen."""
    import resource
    source = f"// unique {time.time_ns()}\n" + emit(add_relu_kernel(), PRODUCT)
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    load(source, PRODUCT, filename="cold.cpp")
    wall = time.perf_counter() - t
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)


def bench_leaks(count: int):
    mod = load(TINY, PRODUCT, filename="tiny.cpp")
    out = np.zeros(8, np.int32)
    for _ in range(50):
        mod.launch("tiny", 8, out)
    rss0, thr0 = rss_kb(), os_threads()
    for _ in range(count):
        mod.launch("tiny", 8, out)
    return rss0, rss_kb(), thr0, os_threads()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--log2n", type=int, default=24, help="elements = 2**log2n (default 24)")
    parser.add_argument("--repeat", type=int, default=5, help="timed repeats, best taken (default 5)")
    args = parser.parse_args()
    n = 1 << args.log2n

    cold, cold_cpu = bench_cold_compile()
    t_emu, t_np = bench_throughput(n, args.repeat)
    median, fastest = bench_launch_overhead(500)
    imports, fresh, again = bench_cached_load()
    rss0, rss1, thr0, thr1 = bench_leaks(1000)

    ratio = t_emu / t_np
    rows = [
        ("add+relu 2^%d float32, 32 cores (emulator)" % args.log2n, f"{t_emu * 1e3:.1f} ms", ""),
        ("same math in numpy", f"{t_np * 1e3:.1f} ms", ""),
        ("ratio emulator / numpy", f"{ratio:.2f}", "target <= 1.0, must be <= 2"),
        ("warm launch, tiny kernel, 8 cores (median / best)", f"{median * 1e3:.3f} / {fastest * 1e3:.3f} ms",
         "target <= 1 ms"),
        ("cached load, fresh process (loads the core library too)", f"{fresh * 1e3:.1f} ms", "<= 50 ms"),
        ("  (python + numpy + ascgen imports before it)", f"{imports * 1e3:.0f} ms", ""),
        ("cached load, same process", f"{again * 1e3:.1f} ms", "<= 50 ms"),
        ("cold compile of a generated kernel (add+relu), wall / compiler CPU", f"{cold:.2f} s / {cold_cpu:.2f} s",
         "target <= 3 s"),
        ("1000 launches: RSS before -> after", f"{rss0} -> {rss1} KiB ({rss1 - rss0:+d})", "no growth"),
        ("1000 launches: OS threads before -> after", f"{thr0} -> {thr1}", "no growth"),
    ]
    print(f"machine: {os.cpu_count()} CPU(s), python {sys.version.split()[0]}, numpy {np.__version__}")
    print("| measurement | result | target |\n|---|---|---|")
    for name, value, target in rows:
        print(f"| {name} | {value} | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
