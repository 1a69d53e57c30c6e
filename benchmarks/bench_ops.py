"""Production operators end to end from Python (docs/ops.md, "Operators run end to end"): every case of
tests/ops/cases.py on every product it lists and every shape, through `ascgen.ops.load(OP)(*arrays)`: the
op's host tiling unchanged, then its kernel on the devkit backend, compared with the case's numpy reference.

    python benchmarks/bench_ops.py [--products ascend910b ascend950] [--only NAME...] [--json OUT]

Needs ASCGEN_CANN_SOURCES (ops-nn, ops-math, metadef, opbase; asc-devkit there or in ASCGEN_ASC_DEVKIT).
Prints one row per (case, product): the shapes run, the tiling keys they hit, the worst mismatch count and
error, the seconds of the first call (builds included) and of the others; then the machine's load.
A case stops at its first failing shape; the row then says what failed (the op's own message, ascgen's
report, the named missing piece, or `unwritten`: an output the kernel never wrote, ops.kernel.UnwrittenOutput).
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ascgen import ops  # noqa: E402
from ascgen.ops.kernel import UnwrittenOutput  # noqa: E402
from tests.ops.cases import mismatches, selected, sweep_arguments  # noqa: E402


def _inputs(case, shape):
    dtype = np.dtype("bfloat16") if case.dtype == "bfloat16" else np.dtype(case.dtype)
    return case.make(shape, dtype, np.random.default_rng(7))


def run_case(case, product: str, root: Path) -> dict:
    row = {"op": case.op, "dtype": case.dtype, "product": product, "shapes": [], "keys": [], "bad": 0,
           "max_error": 0.0, "first_s": None, "rest_s": 0.0, "status": "ok", "reason": ""}
    try:
        op = ops.load(root / case.op, product=product)
    except Exception as exc:                                    # refused for the product, no op_host...
        row.update(status="refused", reason=f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}")
        return row
    for shape in case.shapes:
        ins = _inputs(case, shape)
        start = time.monotonic()
        try:
            result = op.tiling(*ins, outputs=case.outputs(ins), **case.attrs)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", UnwrittenOutput)
                got = op(*ins, outputs=case.outputs(ins), **case.attrs)
        except Exception as exc:
            lines = [ln for ln in str(exc).splitlines() if ln.strip()]
            row.update(status="failed", reason=f"{shape}: {type(exc).__name__}: " + " | ".join(lines[:3])[:500])
            return row
        seconds = time.monotonic() - start
        if row["first_s"] is None:
            row["first_s"] = seconds
        else:
            row["rest_s"] += seconds
        unwritten = [str(w.message) for w in caught if issubclass(w.category, UnwrittenOutput)]
        if unwritten:
            row.update(status="unwritten", reason=f"{shape}: {unwritten[0][:400]}")
            return row
        got = got if isinstance(got, tuple) else (got,)
        for g, r in zip(got, case.expected(ins, product)):
            bad, err = mismatches(g, r)
            row["bad"] += bad
            row["max_error"] = max(row["max_error"], err)
        row["shapes"].append("x".join(map(str, shape)))
        if result.tiling_key not in row["keys"]:
            row["keys"].append(result.tiling_key)
    if row["bad"]:
        row["status"] = "wrong"
    return row


def main() -> None:
    args, root = sweep_arguments(__doc__.splitlines()[0])
    rows = []
    for case, product in selected(args.only, args.products):
        row = run_case(case, product, root)
        rows.append(row)
        first = f"{row['first_s']:.1f}" if row["first_s"] is not None else "-"
        print(f"| {row['op']} | {row['dtype']} | {product} | {', '.join(row['shapes']) or '-'} | "
              f"{', '.join(map(str, row['keys'])) or '-'} | {row['status']} | {row['bad']} | "
              f"{row['max_error']:.2g} | {first} / {row['rest_s']:.1f} | {row['reason']} |", flush=True)
    passed = sum(r["status"] == "ok" for r in rows)
    print(f"\n{passed} of {len(rows)} (case, product) rows ran every shape and matched; "
          f"{sum(r['status'] == 'wrong' for r in rows)} wrong")
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
