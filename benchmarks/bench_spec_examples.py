"""Every example spec in examples/ on every product family, against the numpy reference (`ascgen test`'s
cases: lengths with tails, 2-D and Matmul shapes), with the compile and run seconds of each.

    python benchmarks/bench_spec_examples.py [--product P ...] [--backend builtin|devkit|both]

tests/e2e/test_spec_test_examples.py runs the same check on one product per architecture (ascend910b,
ascend950, ascend310p, plus add_relu on ascend910_93, whose programs equal ascend910b's but for
comments); this runs the full set, ascend910_93 included. Kernels a product does not offer are listed
as refused. Prints a markdown table; exit 1 on any failure.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ascgen.builder import load_spec  # noqa: E402
from ascgen.commands import test as spec_test  # noqa: E402
from ascgen.errors import SpecError  # noqa: E402

PRODUCTS = ["ascend910_93", "ascend910b", "ascend950", "ascend310p"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--product", action="append", help=f"repeatable; default {' '.join(PRODUCTS)}")
    ap.add_argument("--backend", default="builtin", choices=["builtin", "devkit", "both"])
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    failed = 0
    print("| kernel | product | result | cases | seconds |\n|---|---|---|---|---|")
    for spec in sorted((ROOT / "examples").glob("*.py")):
        for kernel in load_spec(spec):
            for product in args.product or PRODUCTS:
                start = time.perf_counter()
                try:
                    result = spec_test.check_kernel(kernel, product, backend=args.backend)
                except SpecError as exc:
                    print(f"| {kernel.name} | {product} | refused: {str(exc).splitlines()[0][:80]} | | |")
                    continue
                bad = [c for c in result.cases if not c.ok]
                failed += bool(bad)
                what = "PASS" if not bad else f"FAIL {bad[0].length}: {bad[0].detail}"
                print(f"| {kernel.name} | {product} | {what} | {len(result.cases)} | "
                      f"{time.perf_counter() - start:.1f} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
