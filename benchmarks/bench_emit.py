"""How long emission takes: every example kernel for the four golden products, repeated.

    python benchmarks/bench_emit.py [--repeat 20]

Prints the mean and best wall time per (kernel, product) emit, and per full `generated/` regeneration.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ascgen  # noqa: E402
from ascgen.builder import load_spec  # noqa: E402
from ascgen.errors import SpecError  # noqa: E402

PRODUCTS = ("ascend910_93", "ascend910b", "ascend950", "ascend310p")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    kernels = [k for spec in sorted((ROOT / "examples").glob("*.py")) for k in load_spec(spec)]
    pairs = []
    for product in PRODUCTS:                                  # what each product can emit (bf16: not 310P)
        for kernel in kernels:
            try:
                ascgen.emit(kernel, product)                  # also warms up jinja2 and the template cache
                pairs.append((kernel, product))
            except SpecError:
                pass
    rounds = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for kernel, product in pairs:
            ascgen.emit(kernel, product)
        rounds.append(time.perf_counter() - start)
    n = len(pairs)
    print(f"{n} emits per round ({len(kernels)} kernels x {len(PRODUCTS)} products, minus refusals), "
          f"{args.repeat} rounds")
    print(f"per emit: mean {statistics.mean(rounds) / n * 1e3:.2f} ms, best {min(rounds) / n * 1e3:.2f} ms")
    print(f"per round: mean {statistics.mean(rounds) * 1e3:.1f} ms, best {min(rounds) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
