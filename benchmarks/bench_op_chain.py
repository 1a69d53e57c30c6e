"""Three production operators as one SuperKernel (docs/ops.md, "Operators in a SuperKernel"): the chain of
tests/superkernel/test_op_chain.py (add_rms_norm -> swi_glu -> rms_norm on ascend910b, the last one a copy
with the task-sync pair), timed cold and warm, its modeled timeline written as an SVG.

    python benchmarks/bench_op_chain.py [--rows 8] [--svg docs/img/sk_op_chain.svg]

Needs ASCGEN_CANN_SOURCES (ops-nn) and ASCGEN_ASC_DEVKIT. The builds land in the cache as for any run; the
first pass pays for what is not cached yet.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tests.superkernel.test_op_chain as chain_test  # noqa: E402
from ascgen.runtime.report.trace import summarize  # noqa: E402
from tests.ops.test_host_tiling import _cann  # noqa: E402
from tests.superkernel.test_production_kernel import _edited_copy  # noqa: E402


def _timed(what: str, fn):
    start = time.perf_counter()
    value = fn()
    print(f"{what:<44} {time.perf_counter() - start:8.2f} s")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=chain_test.ROWS)
    parser.add_argument("--svg", type=Path, default=None, help="write the modeled timeline here")
    args = parser.parse_args()
    chain_test.ROWS = args.rows
    source = (_cann() / chain_test.RMS_NORM / "op_kernel" / "rms_norm.cpp").read_text()
    copy = _edited_copy(_cann() / chain_test.RMS_NORM, {"rms_norm.cpp": chain_test._sync_calls(source)})
    chain = chain_test.Chain(copy)
    for attempt in ("first", "second"):
        alone = _timed(f"{attempt}: three ops one by one", chain.one_by_one)
        sk, got = _timed(f"{attempt}: SuperKernel.add x3 (tiling, build)", chain.superkernel)
        report = _timed(f"{attempt}: SuperKernel.run", sk.run)
    same = chain_test._same_bits(got, alone)
    print(f"outputs equal to the one-by-one run, bit for bit: {not same} {same or ''}")
    print(f"races: {len(report.races)}")
    runs = chain_test._task_spans(report)
    for task, name in enumerate(report.tasks):
        print(f"  task {task} {name:<14} cores {len(runs[task]):>2}  begins {min(a for a, _ in runs[task]):>7.0f}"
              f"  ends {max(b for _, b in runs[task]):>7.0f} cycles")
    print(summarize(report))
    if args.svg:
        args.svg.write_text(report.timeline_svg())
        print(f"wrote {args.svg}")


if __name__ == "__main__":
    main()
