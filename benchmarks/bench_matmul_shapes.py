"""Builder Matmul at any (M, K, N), no `multiple_of`: half, bfloat16 and int8 operands on the builtin and
the devkit backend (issue 23 point 1).

    python benchmarks/bench_matmul_shapes.py [--product ascend910b] [--backend both]

For each dtype and shape: the kernel's outputs (the `workspace` a x b and the epilogue's `y`) against
ascgen.builder.reference (the cube's summation order) through `ascgen test`'s run_case, bit-identity of
the two backends, and the workspace's largest error against numpy's a @ b in float64 (the truth; int8
must be exact). Prints a markdown table; exit 1 on any failure. tests/builder/test_matmul_shapes.py
runs a subset.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ascgen.builder import Cast, Kernel, Matmul, Relu  # noqa: E402
from ascgen.codegen.emit import emit  # noqa: E402
from ascgen.commands.test import _case, _launch, run_case  # noqa: E402
from ascgen.runtime.loader import load  # noqa: E402

SHAPES = [(1, 1, 1), (40, 100, 48), (33, 4095, 17), (256, 256, 256)]      # (M, K, N) as in issue 23


def kernel(dtype: str) -> Kernel:
    k = Kernel(f"mm_any_{dtype}", block_dim=2)
    a = k.input("a", dtype, shape=("M", "K"))
    b = k.input("b", dtype, shape=("K", "N"))
    c = Matmul(a, b, tile=(32, 64, 64) if dtype == "int8" else (64, 64, 64))
    k.output("y", Cast(Cast(c, "float32") * 0.25, "float16") if dtype == "int8" else Cast(Relu(c), dtype))
    return k


def truth_error(module, k, m, kk, n) -> float:
    """Largest |workspace - a @ b| (float64 numpy) relative to the sum of |products| of the row and column."""
    dims, inputs, scalars, outputs = _case(k, (m, n, kk), 0)
    _launch(module, k, dims, inputs, scalars, outputs)
    a, b = (inputs[x].astype(np.float64) for x in ("a", "b"))
    want, scale = a @ b, np.abs(a) @ np.abs(b)
    return float(np.max(np.abs(outputs["workspace"] - want) / np.maximum(scale, 1e-30)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--product", default="ascend910b")
    parser.add_argument("--backend", choices=("builtin", "both"), default="both")
    args = parser.parse_args()
    rows, failed = ["| dtype | (M, K, N) | vs reference | backends | vs numpy (relative) | time |",
                    "|---|---|---|---|---|---|"], 0
    for dtype in ("float16", "bfloat16", "int8"):
        k = kernel(dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            source = emit(k, args.product)
        builtin = load(source, args.product, filename=f"{k.name}.cpp", backend="builtin")
        devkit = load(source, args.product, filename=f"{k.name}.cpp", backend="devkit") if args.backend == "both" else None
        for m, kk, n in SHAPES:
            start = time.perf_counter()
            case = run_case(builtin, k, (m, n, kk), 0, devkit)
            seconds = time.perf_counter() - start
            err = truth_error(builtin, k, m, kk, n)
            ok = case.ok and (err == 0 if dtype == "int8" else err < 1e-5)
            failed += not ok
            rows.append(f"| {dtype} | ({m}, {kk}, {n}) | {'equal' if case.ok else case.detail[:80]} | "
                        f"{'bit-identical' if devkit and case.ok else ('builtin only' if not devkit else '-')} | "
                        f"{err:.2g} | {seconds:.2f} s |")
    print("\n".join(rows))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
