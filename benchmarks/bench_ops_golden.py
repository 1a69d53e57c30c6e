"""`ascgen ops test` over the operators of tests/ops/cases.py whose repository has a golden: each op, its
shapes (the last one ragged), the seconds each run took and its lines (max errors per output), one
`ascgen ops test` process per op as a user runs it. Needs ASCGEN_CANN_SOURCES (and the asc-devkit tree).

    python benchmarks/bench_ops_golden.py [--python PY]

The table goes to stdout as markdown rows: op, product, shapes, verdict, the worst max abs error, seconds.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

# (op folder under ASCGEN_CANN_SOURCES, product, dtype, shapes, attributes)
CASES = [
    ("ops-math/math/is_inf", "ascend910b", "float16", ["8x256", "37x129", "3x5x1001"], []),
    ("ops-nn/norm/rms_norm", "ascend910b", "float16,float16", ["8x256,256", "37x1281,1281"], ["epsilon=1e-6"]),
    # the definition's first combination: x float16 with gamma float32
    ("ops-nn/norm/rms_norm", "ascend910b", "float16,float32", ["8x256,256"], ["epsilon=1e-6"]),
    ("ops-nn/norm/add_rms_norm_cast", "ascend910b", "float16,float16,float16", ["8x256,8x256,256", "37x1281,37x1281,1281"],
     ["epsilon=1e-6"]),
    ("ops-nn/quant/dynamic_quant", "ascend910b", "float16", ["8x256,-,-", "37x1281,-,-"], ["dst_type=2"]),
    ("ops-nn/quant/ascend_quant_v2", "ascend910b", "float16,float16,-", ["8x256,256,-", "37x1281,1281,-"],
     ["sqrt_mode=false", "round_mode=round", "dst_type=2", "axis=-1"]),
    ("ops-nn/norm/add_rms_norm", "ascend910b", "float16,float16,float16", ["8x256,8x256,256", "37x1281,37x1281,1281"],
     ["epsilon=1e-6"]),
]
_LINE = re.compile(r"^\S+ (\S+) (\w+) \((\w+)\): max abs (\S+), max rel (\S+), (\d+)/(\d+) beyond (.+?) - (.*)$")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    cann = Path(os.environ["ASCGEN_CANN_SOURCES"])
    root = Path(__file__).resolve().parents[1]
    print("| op | product | dtypes | shapes | verdict | worst max abs | seconds |")
    print("|---|---|---|---|---|---|---|")
    for op, product, dtype, shapes, attrs in CASES:
        cmd = [sys.executable, "-m", "ascgen", "ops", "test", str(cann / op), "--product", product, "--dtype", dtype,
               "--shapes", *shapes, "--python", args.python, *(w for a in attrs for w in ("--attr", a))]
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
        seconds = time.perf_counter() - start
        rows = [m.groups() for m in map(_LINE.match, proc.stdout.splitlines()) if m]
        worst = max((float(r[3]) for r in rows), default=float("nan"))
        verdict = ("match" if proc.returncode == 0 else "MISMATCH" if proc.returncode == 1 and rows
                   else "error: " + _last_error(proc.stderr))
        print(f"| {op.rsplit('/', 1)[-1]} | {product} | {dtype} | {' '.join(shapes)} | {verdict} | {worst:.3g} | {seconds:.0f} |",
              flush=True)
        for r in rows:
            print(f"<!-- {op} {r[0]} {r[1]} ({r[2]}): max abs {r[3]}, max rel {r[4]}, {r[5]}/{r[6]} beyond {r[7]} -->")
    return 0


def _last_error(stderr: str) -> str:
    lines = [line.removeprefix("ascgen: error: ") for line in stderr.splitlines()
             if line.startswith(("ascgen: error:", "SUMMARY:"))]
    lines = lines or stderr.strip().splitlines() or ["?"]
    return lines[-1][:160]


if __name__ == "__main__":
    sys.exit(main())
