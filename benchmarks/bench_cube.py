"""Cube benchmark: an emulated matmul through the real cube path against numpy, in the same run.

    python benchmarks/bench_cube.py              # prints a markdown table
    python benchmarks/bench_cube.py --no-naive   # skip the slow run with the old naive Mmad loop
    python benchmarks/bench_cube.py --backend builtin devkit --no-naive   # both backends side by side
    python benchmarks/bench_cube.py --backend builtin devkit --api --no-naive   # + the Matmul API (devkit)

C (1024 x 1024, float) = A (1024 x 1024, half) x B (1024 x 1024, half) by benchmarks/kernels/matmul_cube.cpp
(DataCopy ND -> NZ to L1, LoadData to L0A / L0B, Mmad, Fixpipe to GM) on all AIC cores of ascend910b, with
128 x 256 x 128 base tiles (L0A 32 KB, L0B 64 KB, L0C 128 KB), against numpy's
`a.astype(np.float32) @ b.astype(np.float32)`. Ratio = emulator / numpy: the target is <= 5, the goal <= 2.

With `--backend devkit` the same source is compiled against the real asc-devkit library (ASCGEN_ASC_DEVKIT), so
the run goes through the library's own DataCopy / LoadData / Mmad / Fixpipe code down to ascgen's cube
intrinsics (runtime/devkit/include/ascgen_devkit/cube.h, whose `mad` calls the same gemm.h); its compile
times are the cold build (the library's precompiled header already built) and the cached load.

With `--api` (devkit only) the same matmul also goes through the library's high-level Matmul API
(benchmarks/kernels/matmul_api.cpp: REGIST_MATMUL_OBJ, IterateAll, the tiling from the library's own
MultiCoreMatmulTiling). The last table puts every path's run time, ratio to numpy and compile times side by side.

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
from timing import best_of  # noqa: E402 - benchmarks/timing.py, beside this script

PRODUCT = "ascend910b"
KERNEL = ROOT / "benchmarks" / "kernels" / "matmul_cube.cpp"
API_KERNEL = ROOT / "benchmarks" / "kernels" / "matmul_api.cpp"
TILE = (128, 256, 128)



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


def devkit_compile_s(kernel: Path = KERNEL) -> tuple[float, float]:
    """(cold, cached) wall seconds of load(backend="devkit"): the kernel text made unique, then loaded again."""
    text = kernel.read_text() + f"\n// bench_cube devkit cold compile {time.time_ns()}\n"
    times = []
    for _ in range(2):
        t = time.perf_counter()
        load(text, PRODUCT, filename=f"{kernel.stem}_cold.cpp", include_dirs=[kernel.parent], backend="devkit")
        times.append(time.perf_counter() - t)
    return times[0], times[1]


def api_runner(n: int):
    """(run(a, b, out), cores used) for the Matmul-API kernel: its tiling from the library's host tiling API
    (a function of the same module, called through ctypes), a system workspace as the host examples size it."""
    import ctypes
    mod = load(API_KERNEL, PRODUCT, backend="devkit")
    tiling = np.zeros(4096, np.uint8)
    fill = mod._lib.ascgen_bench_matmul_tiling
    fill.restype = ctypes.c_int
    used = fill(tiling.ctypes.data_as(ctypes.c_void_p), ctypes.c_uint32(tiling.size), n, n, n)
    if used <= 0:
        raise SystemExit("the library's MultiCoreMatmulTiling found no tiling")
    workspace = np.zeros(16 << 20, np.uint8)       # GetLibApiWorkSpaceSize() on ascend910b
    return (lambda a, b, out: mod.launch("matmul_api", used, a, b, out, workspace, tiling)), used


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-naive", action="store_true", help="skip the run with the old naive Mmad loop")
    ap.add_argument("--no-compile", action="store_true", help="skip the cold compile measurements")
    ap.add_argument("--backend", nargs="+", default=["builtin"], choices=["builtin", "devkit"],
                    help="backends to run the kernel on (devkit: the real library, needs ASCGEN_ASC_DEVKIT)")
    ap.add_argument("--api", action="store_true",
                    help="also run the matmul through the library's Matmul API (devkit backend)")
    args = ap.parse_args()

    n = args.size
    cores = products.get(PRODUCT).aic_cores
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(np.float16)
    b = rng.standard_normal((n, n)).astype(np.float16)
    bound = float_sum_bound(a, b, n)

    run = lambda m, out: m.launch("matmul_cube", cores, a, b, out, n, n, n, *TILE)  # noqa: E731
    exact = a.astype(np.float64) @ b.astype(np.float64)
    t_np = best_of(lambda: a.astype(np.float32) @ b.astype(np.float32), args.repeat)
    gflop = 2.0 * n ** 3 / 1e9
    rows = [("numpy float32 matmul (incl. astype)", f"{t_np * 1e3:.1f} ms", f"{gflop / t_np:.1f} GFLOPS")]
    outs, times = {}, {}
    summary = []        # (path, backend, run s, cold compile s or None, cached load s or None)
    for backend in args.backend:
        mod = load(KERNEL, PRODUCT, backend=backend)
        out = np.zeros((n, n), np.float32)
        run(mod, out)                                                               # warm-up and check
        assert (np.abs(out - exact) <= bound).all(), f"the emulated matmul ({backend}) is wrong"
        outs[backend] = out
        t_emu = times[backend] = best_of(lambda: run(mod, out), args.repeat)
        label = "gemm.h Mmad" if backend == "builtin" else "real library cube path, gemm.h mad"
        rows += [
            (f"emulated matmul, {backend} backend ({label})", f"{t_emu * 1e3:.1f} ms", f"{gflop / t_emu:.1f} GFLOPS"),
            (f"ratio {backend} / numpy", f"{t_emu / t_np:.2f}", "target <= 5, goal <= 2"),
        ]
    if args.api:
        api_run, used = api_runner(n)
        out = np.zeros((n, n), np.float32)
        api_run(a, b, out)
        assert (np.abs(out - exact) <= bound).all(), "the emulated matmul (Matmul API) is wrong"
        t_api = best_of(lambda: api_run(a, b, out), args.repeat)
        times["api"] = t_api
        rows += [(f"emulated matmul, devkit backend (the library's Matmul API, {used} AIC cores)",
                  f"{t_api * 1e3:.1f} ms", f"{gflop / t_api:.1f} GFLOPS"),
                 ("ratio Matmul API / numpy", f"{t_api / t_np:.2f}", "target <= 5, goal <= 2")]
    if len(outs) == 2:
        same = np.array_equal(outs["builtin"], outs["devkit"])
        rows.append(("builtin and devkit outputs bit-identical", "yes" if same else "NO", ""))
    if not args.no_naive and "builtin" in times:
        naive = load(KERNEL, PRODUCT, defines={"ASCGEN_BENCH_NAIVE_MMAD": None})
        c2 = np.zeros((n, n), np.float32)
        t_naive = best_of(lambda: run(naive, c2), 1)
        assert (np.abs(c2 - exact) <= bound).all(), "the naive-loop matmul is wrong"
        rows += [
            ("emulated matmul, old naive Mmad loop", f"{t_naive * 1e3:.0f} ms", f"{gflop / t_naive:.2f} GFLOPS"),
            ("speed-up of the new Mmad (end to end)", f"{t_naive / times['builtin']:.1f}x", ""),
        ]
    compiles = {}
    if not args.no_compile and args.api:
        compiles["api"] = devkit_compile_s(API_KERNEL)
    if not args.no_compile and "devkit" in args.backend:
        cold, cached = compiles["devkit"] = devkit_compile_s()
        rows += [
            ("devkit: cold compile of the kernel (library PCH built)", f"{cold:.2f} s", ""),
            ("devkit: cached load of the kernel", f"{cached:.2f} s", ""),
        ]
    if not args.no_compile and "builtin" in args.backend:
        flags = " ".join(build.NATIVE_FLAGS)
        with_native, without = cold_compile_s(True), cold_compile_s(False)
        compiles["builtin"] = (with_native, None)
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
    print()
    print(side_by_side(times, t_np, compiles))


PATHS = {"builtin": ("basic-API cube kernel (matmul_cube.cpp)", "builtin"),
         "devkit": ("basic-API cube kernel (matmul_cube.cpp)", "devkit"),
         "api": ("the library's Matmul API (matmul_api.cpp)", "devkit")}


def side_by_side(times: dict, t_np: float, compiles: dict) -> str:
    """One table: each path's run time, ratio to numpy, cold compile and cached load."""
    sec = lambda v: "-" if v is None else f"{v:.1f} s"      # noqa: E731
    lines = ["| path | backend | run | ratio to numpy | cold compile | cached load |", "|---|---|---|---|---|---|"]
    for key, t in times.items():
        path, backend = PATHS[key]
        cold, cached = compiles.get(key, (None, None))
        lines.append(f"| {path} | {backend} | {t * 1e3:.1f} ms | {t / t_np:.2f} | {sec(cold)} | {sec(cached)} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
