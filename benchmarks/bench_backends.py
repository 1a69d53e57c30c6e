"""Every example kernel on both backends (docs/builder.md "Both backends"): emitted for one product, run on
the builtin emulator and on the devkit backend with the same inputs at the `ascgen test` cases, each
checked against the reference and the two compared bit for bit.

    ASCGEN_ASC_DEVKIT=<asc-devkit tree> python benchmarks/bench_backends.py [--product ascend910b]

Prints a markdown table: kernel, cases, max error against the reference, backends identical or not, time
(a cold cache compiles each kernel twice, about a minute per kernel on the devkit backend). Exit 1 if any
kernel fails.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ascgen.builder import load_spec  # noqa: E402
from ascgen.commands.test import check_kernel  # noqa: E402
from ascgen.errors import SpecError  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--product", default="ascend910b")
    args = parser.parse_args()
    print("| kernel | cases | max error vs reference | builtin == devkit | time |")
    print("|---|---|---|---|---|")
    failed = 0
    for spec in sorted((ROOT / "examples").glob("*.py")):
        for kernel in load_spec(spec):
            try:
                result = check_kernel(kernel, args.product, backend="both")
            except SpecError as exc:
                print(f"| {kernel.name} | refused: {exc} | | | |")
                continue
            worst = max((c.max_error for c in result.cases), default=0.0)
            verdict = "bit-identical" if result.ok else "; ".join(c.detail for c in result.cases if not c.ok)
            failed += not result.ok
            print(f"| {kernel.name} | {len(result.cases)} | {worst:.3g} | {verdict} | {result.seconds:.1f} s |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
