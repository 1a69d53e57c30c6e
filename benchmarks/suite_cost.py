"""Where the test suite's time goes (issue 22 point 4): runs pytest with every C++ compile timed, then prints
the seconds per test file and the compiler's CPU per kind of build (docs/testing.md has the tables).

    python benchmarks/suite_cost.py [--cache DIR] [--keep-log FILE] [-- PYTEST ARGS...]

Default pytest arguments: `-n 2 -q -p no:cacheprovider` (always with `--durations=0`). The test cache is a
new empty folder unless --cache names one (the first build of everything, as on a clean CI machine).
Every compile goes through a small wrapper (ASCGEN_CXX and CXX point at it) that appends the compiler's
wall, user and sys seconds (its own and its children's: cc1plus, as, ld) and the output path to a log; the
kind of build is read from that path. The whole run's CPU is this process's children's (pytest, its
workers and everything they started).
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ARGS = ["-n", "2", "-q", "-p", "no:cacheprovider"]

# bash's `time` keyword reports the command's and its waited-for children's CPU, without /usr/bin/time.
WRAPPER = r"""#!/bin/bash
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done
tf=$(mktemp)
TIMEFORMAT="%R %U %S"
{ time "$SUITE_COST_CXX" "$@" 2>&4 ; } 4>&2 2>"$tf"
rc=$?
echo "$(tail -n 1 "$tf") rc=$rc out=$out" >> "$SUITE_COST_LOG"
rm -f "$tf"
exit $rc
"""

# The kind of a build, from its output path (the cache's names: docs/runtime.md, "Cache").
KINDS = [
    ("devkit precompiled library header", re.compile(r"\.gch$")),
    ("devkit host tiling library", re.compile(r"devkit-host")),
    ("op_host tiling: CANN host runtime and op runners (ascgen/ops)", re.compile(r"ops-host")),
    ("devkit kernel modules", re.compile(r"\.build-[^/]*-devkit-")),
    ("builtin kernel modules and the core", re.compile(r"\.build-")),
    ("library unit-test drivers (tests/library)", re.compile(r"/libtest/")),
    ("compiler probes, preprocessing (no output file)", re.compile(r"^$")),
]
DURATION = re.compile(r"^([\d.]+)s (call|setup|teardown)\s+(\S+)", re.M)


def kind(out: str) -> str:
    return next((name for name, pattern in KINDS if pattern.search(out)), "tests' own programs")


def compile_table(log: Path) -> list[tuple[str, int, float, float]]:
    """(kind, compiles, CPU s, wall s), most CPU first."""
    rows: dict[str, list] = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for line in log.read_text().splitlines() if log.is_file() else []:
        m = re.match(r"([\d.]+) ([\d.]+) ([\d.]+) rc=\d+ out=(.*)$", line)
        if m:
            row = rows[kind(m[4])]
            row[0] += 1
            row[1] += float(m[2]) + float(m[3])
            row[2] += float(m[1])
    return sorted(((k, n, cpu, wall) for k, (n, cpu, wall) in rows.items()), key=lambda r: -r[2])


def file_table(output: str) -> list[tuple[str, float, float]]:
    """(test file, seconds in its tests, of which in fixtures' setup), slowest first."""
    total: collections.Counter = collections.Counter()
    setup: collections.Counter = collections.Counter()
    for seconds, phase, nodeid in DURATION.findall(output):
        name = nodeid.split("::")[0]
        total[name] += float(seconds)
        if phase == "setup":
            setup[name] += float(seconds)
    return [(name, s, setup[name]) for name, s in total.most_common()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", type=Path, help="the test cache (default: a new empty folder)")
    ap.add_argument("--keep-log", type=Path, help="also write the compile log here")
    ap.add_argument("--keep-output", type=Path, help="also write pytest's output (--durations=0 included) here")
    ap.add_argument("--top", type=int, default=25, help="test files to list")
    ap.add_argument("pytest_args", nargs="*", help="after --: pytest's arguments")
    args = ap.parse_args()
    real = shutil.which(os.environ.get("ASCGEN_CXX") or os.environ.get("CXX") or "g++")
    if real is None:
        sys.exit("suite_cost: no C++ compiler (set ASCGEN_CXX)")
    with tempfile.TemporaryDirectory(prefix="ascgen-suite-cost-") as tmp:
        tmp = Path(tmp)
        wrapper = tmp / "cxx"
        wrapper.write_text(WRAPPER)
        wrapper.chmod(0o755)
        log = tmp / "compiles.log"
        cache = args.cache or tmp / "cache"
        env = {**os.environ, "ASCGEN_CXX": str(wrapper), "CXX": str(wrapper), "SUITE_COST_CXX": real,
               "SUITE_COST_LOG": str(log), "ASCGEN_TEST_CACHE_DIR": str(cache)}
        cmd = [sys.executable, "-m", "pytest", *(args.pytest_args or DEFAULT_ARGS), "--durations=0"]
        start = time.monotonic()
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.monotonic() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if args.keep_log:
            shutil.copyfile(log, args.keep_log)
        if args.keep_output:
            args.keep_output.write_text(proc.stdout + proc.stderr)
        summary = [ln for ln in proc.stdout.splitlines() if re.search(r"\d+ (passed|failed)", ln)]
        compiles = compile_table(log)
    print(f"`{' '.join(cmd[1:])}`: {summary[-1] if summary else 'no summary (exit ' + str(proc.returncode) + ')'}")
    print(f"wall {wall:.0f} s, CPU user {usage.ru_utime:.0f} s + sys {usage.ru_stime:.0f} s, "
          f"load average at the end {os.getloadavg()[0]:.1f}\n")
    failed = [ln for ln in proc.stdout.splitlines() if ln.startswith(("FAILED ", "ERROR "))]
    if failed:      # the figures below are of a run that did not do everything: say which tests
        print(f"{len(failed)} tests did not pass:\n" + "\n".join(f"  {ln}" for ln in failed) + "\n")
    print("| kind of build | compiles | CPU s | wall s (summed) |\n|---|---|---|---|")
    for name, n, cpu, w in compiles:
        print(f"| {name} | {n} | {cpu:.0f} | {w:.0f} |")
    cpu_compile = sum(r[2] for r in compiles)
    print(f"| all compiles | {sum(r[1] for r in compiles)} | {cpu_compile:.0f} | |")
    print(f"| everything else (Python, the emulator's runs, checker) | | "
          f"{usage.ru_utime + usage.ru_stime - cpu_compile:.0f} | |\n")
    files = file_table(proc.stdout)
    print(f"| test file (top {args.top}) | test s (summed over workers) | of which fixture setup |\n|---|---|---|")
    for name, s, setup in files[:args.top]:
        print(f"| `{name}` | {s:.0f} | {setup:.0f} |")
    print(f"| all {len(files)} files | {sum(f[1] for f in files):.0f} | {sum(f[2] for f in files):.0f} |")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
