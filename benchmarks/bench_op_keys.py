"""Tiling-key coverage of every case of tests/ops/cases.py (docs/ops.md, "Tiling-key coverage"): each case on
each of its products over a wide shape sweep (small, large, ragged, one element, huge rows), tiling only (no
kernel launch), the keys the host tiling produces against the keys the kernel handles (ascgen/ops/keys.py).

    python benchmarks/bench_op_keys.py [--only NAME...] [--products P...] [--json OUT]

Needs ASCGEN_CANN_SOURCES. One row per (case, product): shapes tried / rejected by the op, keys produced,
keys handled (or how the kernel dispatches), uncovered keys with the first shape producing each; then every
uncovered message in full and the machine's load.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ascgen import ops  # noqa: E402
from ascgen.ops import key_coverage  # noqa: E402
from tests.ops.cases import selected, sweep_arguments  # noqa: E402

ROWS = (1, 2, 7, 48, 97, 4095, 100003)                 # one row ... huge row counts
LASTS = (1, 2, 16, 33, 34, 130, 1001, 1282, 8194, 65538)  # one element, odd / even ragged, large
MAX_ELEMENTS = 1 << 22                                  # the makers build real arrays: keep each small enough


def sweep(base: tuple) -> list[tuple]:
    """Shapes around a case's base shape: its first and last dimension varied, alone and together."""
    out = [base]
    for rows in ROWS:
        out.append((rows,) + base[1:])
    for last in LASTS:
        out.append(base[:-1] + (last,))
    for rows, last in ((1, 1), (100003, 34), (3, 65538), (97, 1282)):
        out.append((rows,) + base[1:-1] + (last,))
    seen, shapes = set(), []
    for s in out:
        if s not in seen and int(np.prod(s)) <= MAX_ELEMENTS:
            seen.add(s)
            shapes.append(s)
    return shapes


def requests(case) -> tuple[list, int]:
    """The case's tiling requests over the sweep of each of its shapes, and how many its maker refused."""
    dtype = np.dtype("bfloat16") if case.dtype == "bfloat16" else np.dtype(case.dtype)
    out, refused, seen = [], 0, set()
    for base in case.shapes:
        for shape in sweep(tuple(base)):
            if shape in seen:
                continue
            seen.add(shape)
            try:
                ins = case.make(shape, dtype, np.random.default_rng(7))
                outs = case.outputs(ins)
            except Exception:                  # a shape the case's layout cannot take (cross_v2 needs a 3)
                refused += 1
                continue
            specs = [None if a is None else (a.shape, a.dtype.name) for a in ins]
            out.append(key_coverage.Request.of(specs, outs, case.attrs))
    return out, refused


def main() -> None:
    args, root = sweep_arguments(__doc__.splitlines()[0])
    rows, messages = [], []
    print("| op | product | dtype | shapes (rejected) | keys produced | keys handled | uncovered | s |")
    print("|---|---|---|---|---|---|---|---|")
    for case, product in selected(args.only, args.products):
        start = time.monotonic()
        row = {"op": case.op, "product": product, "dtype": case.dtype}
        try:
            op = ops.load(root / case.op, product=product)
            reqs, refused = requests(case)
            result = key_coverage.coverage(op, reqs)
        except Exception as exc:
            row.update(status=f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
            print(f"| {case.op} | {product} | {case.dtype} | - | - | - | {row['status']} | - |", flush=True)
            rows.append(row)
            continue
        handled = result.handled()
        how = "; ".join(sorted({r.describe() for r in result.readings})) or "-"
        row.update(shapes=len(reqs), rejected=len(result.rejected), refused=refused,
                   produced=sorted(result.produced), handled=handled, dispatch=how,
                   uncovered={u.key: u.request.describe(op) for u in result.uncovered},
                   unknown=sorted({u.key for u in result.unknown}),
                   never=result.never_produced(), seconds=round(time.monotonic() - start, 1),
                   rejections=sorted({why[:200] for _, why in result.rejected})[:3])
        messages += [u.message for u in result.uncovered + result.unknown]
        shown_handled = "any key" if handled is None else keys_text(handled)
        print(f"| {case.op} | {product} | {case.dtype} | {len(reqs)} ({len(result.rejected)}) | "
              f"{keys_text(row['produced'])} | {shown_handled} | "
              f"{', '.join(map(str, row['uncovered'])) or 'none'}"
              f"{' (unknown ' + keys_text(row['unknown']) + ')' if row['unknown'] else ''} | "
              f"{row['seconds']} |", flush=True)
        rows.append(row)
    print()
    for m in messages:
        print(f"* {m}")
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, default=str))


def keys_text(keys) -> str:
    keys = list(keys)
    return ", ".join(map(str, keys[:12])) + (f" ... ({len(keys)})" if len(keys) > 12 else "") if keys else "none"


if __name__ == "__main__":
    main()
