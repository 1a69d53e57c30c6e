"""Cost of the reliability checks that run on every launch (the numbers in docs/reliability.md).

    python benchmarks/bench_reliability.py [--n 4194304] [--repeat 5]

Two kernels, each timed with the checks on and off, every setting in a fresh process:
1. add+relu (a builder kernel, emitted and compiled; GlobalTensor/DataCopy code) on n float32 over 32 cores;
2. a scalar GM loop through raw `(__gm__ float*)` pointers (tests/data/runtime_kernels/robust.cpp raw_scale).
Settings: default (guard zones on GM arrays up to 1 MiB + local-memory poisoning), ASCGEN_GM_GUARD=all,
ASCGEN_GM_GUARD=0, ASCGEN_POISON_LOCAL=0, both off, and ASCGEN_RAW_GM_RACES=1 (modules instrumented for
raw-pointer race detection; the launches here do not detect races, so this is the hooks' floor). Prints the best-of-repeat CPU time of a launch (all threads of the process: wall time on a shared
machine is mostly other people's load) and the ratio to "both off".
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {"default (guard <= 1 MiB + poison)": {}, "ASCGEN_GM_GUARD=all": {"ASCGEN_GM_GUARD": "all"},
            "ASCGEN_GM_GUARD=0": {"ASCGEN_GM_GUARD": "0"},
            "ASCGEN_POISON_LOCAL=0": {"ASCGEN_POISON_LOCAL": "0"},
            "both off": {"ASCGEN_GM_GUARD": "0", "ASCGEN_POISON_LOCAL": "0"},
            "ASCGEN_RAW_GM_RACES=1 (instrumented, no race run)": {"ASCGEN_RAW_GM_RACES": "1"}}


def child(n: int, repeat: int) -> dict:
    sys.path.insert(0, str(ROOT))
    import numpy as np
    from ascgen.builder import Kernel, Relu
    from ascgen.codegen.emit import emit
    from ascgen.runtime import load
    from tests.paths import RUNTIME_KERNELS

    def best(fn) -> float:
        fn()                                   # warm up (page faults, thread pool)
        times = []
        for _ in range(repeat):
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
        return min(times)

    k = Kernel("bench_add_relu", block_dim=32, tile_length=8192, buffer_num=2)
    x_in, y_in = k.input("x", "float32"), k.input("y", "float32")
    k.output("z", Relu(x_in + y_in))
    add_relu = load(emit(k, "ascend950"), "ascend950", filename="bench_add_relu.cpp")
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    z = np.empty_like(x)
    t_add = best(lambda: add_relu.launch(k.name, k.block_dim, x, y, z, n))
    assert np.array_equal(z, np.maximum(x + y, 0))
    raw = load(RUNTIME_KERNELS / "robust.cpp", "ascend950")
    t_raw = best(lambda: raw.launch("raw_scale", 32, x, z, n, 2.0))
    assert np.array_equal(z, x * np.float32(2.0) + np.float32(1.0))
    return {"add_relu": t_add, "raw_loop": t_raw}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1 << 22)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.n, args.repeat)))
        return
    results = {}
    for label, env in SETTINGS.items():
        out = subprocess.run([sys.executable, __file__, "--child", "--n", str(args.n), "--repeat", str(args.repeat)],
                             capture_output=True, text=True, env={**os.environ, **env}, check=True).stdout
        results[label] = json.loads(out.strip().splitlines()[-1])
    base = results["both off"]
    print(f"n = {args.n} float32, best of {args.repeat}, CPU time per launch\n")
    print("| setting | add+relu (ms) | ratio | raw GM loop (ms) | ratio |")
    print("|---|---|---|---|---|")
    for label, r in results.items():
        print(f"| {label} | {r['add_relu'] * 1e3:.1f} | {r['add_relu'] / base['add_relu']:.2f} | "
              f"{r['raw_loop'] * 1e3:.1f} | {r['raw_loop'] / base['raw_loop']:.2f} |")


if __name__ == "__main__":
    main()
