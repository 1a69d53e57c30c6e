"""Cube benchmark: an emulated matmul through the real cube path against numpy, in the same run.

    python benchmarks/bench_cube.py              # prints a markdown table
    python benchmarks/bench_cube.py --no-naive   # skip the slow run with the old naive Mmad loop

C (1024 x 1024, float) = A (1024 x 1024, half) x B (1024 x 1024, half) by benchmarks/kernels/matmul_cube.cpp
(DataCopy ND -> NZ to L1, LoadData to L0A / L0B, Mmad, Fixpipe to GM) on all AIC cores of ascend910b, with
128 x 256 x 128 base tiles (L0A 32 KB, L0B 64 KB, L0C 128 KB), against numpy's
`a.astype(np.float32) @ b.astype(np.float32)`. Ratio = emulator / numpy: the target is <= 5, the goal <= 2.

Also: the same kernel with the old naive Mmad loop (benchmarks/kernels/naive_mmad.h, run once: it is
slow), and the cold compile time of the kernel with and without the runtime's -march=native flags.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ascgen import products  # noqa: E402
from ascgen.runtime import build, load  # noqa: E402

PRODUCT = "ascend910b"
KERNEL = ROOT / "benchmarks" / "kernels" / "matmul_cube.cpp"
TILE = (128, 256, 128)


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def float_sum_bound(a, b, k: int):
    # k exact products summed in float32 in any order: within k * 2^-24 * sum |a_i b_i| of the exact value.
    return k * 2.0 ** -24 * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)))


def cold_compile_s(native: bool) -> float:
    """Wall seconds of load() on the kernel text made unique (so the cache misses)."""
    text = KERNEL.read_text() + f"\n// bench_cube cold compile {time.time_ns()} {native}\n"
    old = os.environ.get("ASCGEN_NATIVE")
    os.environ["ASCGEN_NATIVE"] = "1" if native else "0"
    try:
        t = time.perf_counter()
        load(text, PRODUCT, filename="matmul_cube_cold.cpp", include_dirs=[KERNEL.parent])
        return time.perf_counter() - t
    finally:
        if old is None:
            del os.environ["ASCGEN_NATIVE"]
        else:
            os.environ["ASCGEN_NATIVE"] = old


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-naive", action="store_true", help="skip the run with the old naive Mmad loop")
    ap.add_argument("--no-compile", action="store_true", help="skip the cold compile measurements")
    args = ap.parse_args()

    n = args.size
    cores = products.get(PRODUCT).aic_cores
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(np.float16)
    b = rng.standard_normal((n, n)).astype(np.float16)
    c = np.zeros((n, n), np.float32)
    bound = float_sum_bound(a, b, n)

    mod = load(KERNEL, PRODUCT)
    run = lambda m, out: m.launch("matmul_cube", cores, a, b, out, n, n, n, *TILE)  # noqa: E731
    run(mod, c)                                                                     # warm-up and check
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert (np.abs(c - exact) <= bound).all(), "the emulated matmul is wrong"

    t_emu = best_of(lambda: run(mod, c), args.repeat)
    t_np = best_of(lambda: a.astype(np.float32) @ b.astype(np.float32), args.repeat)
    gflop = 2.0 * n ** 3 / 1e9

    rows = [
        ("emulated matmul (gemm.h Mmad)", f"{t_emu * 1e3:.1f} ms", f"{gflop / t_emu:.1f} GFLOPS"),
        ("numpy float32 matmul (incl. astype)", f"{t_np * 1e3:.1f} ms", f"{gflop / t_np:.1f} GFLOPS"),
        ("ratio emulator / numpy", f"{t_emu / t_np:.2f}", "target <= 5, goal <= 2"),
    ]
    if not args.no_naive:
        naive = load(KERNEL, PRODUCT, defines={"ASCGEN_BENCH_NAIVE_MMAD": None})
        c2 = np.zeros_like(c)
        t_naive = best_of(lambda: run(naive, c2), 1)
        assert (np.abs(c2 - exact) <= bound).all(), "the naive-loop matmul is wrong"
        rows += [
            ("emulated matmul, old naive Mmad loop", f"{t_naive * 1e3:.0f} ms", f"{gflop / t_naive:.2f} GFLOPS"),
            ("speed-up of the new Mmad (end to end)", f"{t_naive / t_emu:.1f}x", ""),
        ]
    if not args.no_compile:
        flags = " ".join(build.NATIVE_FLAGS)
        with_native, without = cold_compile_s(True), cold_compile_s(False)
        rows += [
            (f"cold compile of the kernel, with `{flags}`", f"{with_native:.2f} s", ""),
            ("cold compile of the kernel, without (ASCGEN_NATIVE=0)", f"{without:.2f} s", ""),
        ]

    print(f"matmul {n}x{n}x{n}, half in, float out, {PRODUCT}: {cores} AIC cores on {os.cpu_count()} CPUs, "
          f"base tile {'x'.join(map(str, TILE))}, best of {args.repeat}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print()
    print("| what | time | note |")
    print("|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")


if __name__ == "__main__":
    main()
