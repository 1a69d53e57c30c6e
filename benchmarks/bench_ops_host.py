"""Cold and warm build + run times of host tiling (docs/ops.md, "Build times").

    python benchmarks/bench_ops_host.py EMPTY_CACHE_FOLDER

Needs ASCGEN_CANN_SOURCES (ops-nn, ops-math, metadef, opbase, asc-devkit). Each step is its own Python
process with ASCGEN_CACHE_DIR set to the folder given (empty: the first step builds everything): add_rms_norm
on ascend910b cold (the host runtime + its runner), the same warm, then pows cold on the warm runtime. The
machine's load (`uptime`) is printed before each step: the numbers mean little without it.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

CALLS = {
    "add_rms_norm": "ops.host_tiling(f'{cann}/ops-nn/norm/add_rms_norm', 'ascend910b', "
                    "inputs=[((64, 1024), 'float16')] * 2 + [((1024,), 'float16')], "
                    "outputs=[((64, 1024), 'float16'), ((64, 1), 'float32'), ((64, 1024), 'float16')])",
    "pows": "ops.host_tiling(f'{cann}/ops-math/math/pows', 'ascend910b', "
            "inputs=[((2, 2560), 'float16'), ((1,), 'float16')], outputs=[((2, 2560), 'float16')])",
}
STEPS = (("cold", "add_rms_norm"), ("warm", "add_rms_norm"), ("second op, cold", "pows"))


def main(cache: Path) -> None:
    cann = os.environ.get("ASCGEN_CANN_SOURCES")
    if not cann:
        sys.exit("set ASCGEN_CANN_SOURCES to the folder holding the CANN source trees")
    env = {**os.environ, "ASCGEN_CACHE_DIR": str(cache),
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    for what, op in STEPS:
        load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        code = f"from ascgen import ops\ncann = {cann!r}\n{CALLS[op]}\n"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(f"{what:16} {op:13} wall {wall:6.1f} s  user {after.ru_utime - before.ru_utime:6.1f} s   [{load}]")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
