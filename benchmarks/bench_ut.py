"""Sweep `ascgen ut` over operator repositories: a table per category, the top blockers, speed.

    python benchmarks/bench_ut.py $ASCGEN_CANN_SOURCES/ops-nn $ASCGEN_CANN_SOURCES/ops-math \\
        --every 1 --budget 36000 --out ut_sweep.json

Each op folder that has kernel UT rules is run once (`python -m ascgen ut OP --format json --jobs N`), in
order, until the time budget is spent (ops not started are listed as not swept). `--every K` sweeps every
K-th op only (a stated subset when the whole sweep does not fit the time); `--offset O` starts at the O-th,
so `--every 10 --offset 0` ... `--offset 9` are ten disjoint shards that together are the whole sweep, run
one at a time (one a session if need be) and read back together with `--report a.json b.json ...`.
`--host` sweeps the op_host tiling UTs instead (`ascgen ut --host`: each op folder with
tests/ut/op_host/test_*tiling*.cpp).
Printed (markdown):

* per category: cases by status (passed-compared, passed-ran, wrong, fault, unsupported, error);
* the top blockers: the reasons of unsupported / fault / error cases, with paths and numbers folded so one
  cause counts once, and how many cases each blocks;
* the median seconds per case with the program's build cached (the cases' own times), and the cold build
  of each op (its wall time minus its cases' times: building and listing, the library's precompiled
  header warm).
"""
from __future__ import annotations

import argparse
import json
import re
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ascgen.errors import SpecError  # noqa: E402
from ascgen.ops import host_ut  # noqa: E402
from ascgen.ut import cmake, verdict  # noqa: E402
from ascgen.ut.verdict import STATUSES  # noqa: E402


def op_folders(paths, host: bool = False) -> list[Path]:
    if host:
        return [op for _, op in host_ut.op_dirs(paths)]
    rules, _ = cmake.discover(paths)
    seen = {}
    for rule in rules:
        seen.setdefault(rule.op_dir, None)
    return list(seen)


def blocker(reason: str) -> str:
    """A reason with its paths, addresses and numbers folded, so one cause is counted once (a fault that only
    followed a data script's missing module counts as that module)."""
    text = reason.split(verdict.CONSEQUENCE)[0]
    text = re.sub(r"(/[\w.+-]+)+/?", "<path>", text)
    text = re.sub(r"0x[0-9a-f]+", "<addr>", text)
    text = re.sub(r"\b\d+(\.\d+)?\b", "N", text)
    text = re.sub(r"\bAI[VC]N\b", "<core>", text)
    return text[:160]


def _stop(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def _run(cmd) -> subprocess.CompletedProcess:
    """`ascgen ut` for one op. Stopped (Ctrl-C, or SIGTERM to this script alone, which a job system sends and
    which would otherwise leave the child sweeping on), the child gets SIGTERM, on which it stops its cases
    and their compilers itself, and this script waits for it before stopping."""
    with subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as child:
        try:
            out, err = child.communicate()
        except KeyboardInterrupt:
            child.terminate()
            try:
                child.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                child.kill()
            raise
    return subprocess.CompletedProcess(cmd, child.returncode, out, err)


def sweep(ops, args) -> tuple[list[dict], list[dict]]:
    cases, runs = [], []
    start = time.monotonic()
    for i, op in enumerate(ops):
        if time.monotonic() - start > args.budget:
            runs.append({"op": str(op), "skipped": "time budget spent"})
            continue
        cmd = [sys.executable, "-m", "ascgen", "ut", str(op), "--format", "json", "--jobs", str(args.jobs),
               "--time-limit", args.time_limit]
        if args.product:
            cmd += ["--product", args.product]
        if args.python:
            cmd += ["--python", args.python]
        if args.host:
            cmd.append("--host")
        t0 = time.monotonic()
        proc = _run(cmd)
        wall = time.monotonic() - t0
        got = []
        for line in proc.stdout.splitlines():
            try:
                got.append(json.loads(line))
            except ValueError:
                pass
        cases += got
        case_s = sum(c["seconds"] for c in got if c["test"] != "*")     # 0 for cases that never ran
        ran = sum(1 for c in got if c["seconds"] > 0 and c["test"] != "*")
        runs.append({"op": str(op), "wall": wall, "cases": len(got), "ran": ran, "build": wall - case_s,
                     "stderr": proc.stderr.strip().splitlines()[-1:] if proc.stderr.strip() else []})
        print(f"[{i + 1}/{len(ops)}] {op.name}: {len(got)} case(s) in {wall:.0f} s "
              f"({dict(Counter(c['status'] for c in got))})", file=sys.stderr, flush=True)
    return cases, runs


def expand(cases, roots) -> list[dict]:
    """A "*" entry (a program that did not build, from an older ascgen ut) as one entry per declared case."""
    from ascgen.ut.runner import declared_cases
    out = []
    for c in cases:
        root = roots.get(c["repository"])
        files = [root / f for f in c["file"].split(",")] if root else []
        names = declared_cases([f for f in files if f.is_file()]) if c["test"] == "*" and files else []
        out += [dict(c, test=n, seconds=0.0) for n in names] if names else [c]
    return out


def category(case: dict, roots: dict) -> str:
    parts = Path(case["file"]).parts
    return f"{case['repository']}/{parts[0]}" if parts else case["repository"]


def table(cases) -> str:
    per = defaultdict(Counter)
    for c in cases:
        per[category(c, {})][c["status"]] += 1
    lines = ["| category | cases | " + " | ".join(STATUSES) + " |", "|---|---:|" + "---:|" * len(STATUSES)]
    total = Counter()
    for cat in sorted(per):
        total.update(per[cat])
        lines.append(f"| {cat} | {sum(per[cat].values())} | " + " | ".join(str(per[cat][s]) for s in STATUSES) + " |")
    lines.append(f"| **all** | {sum(total.values())} | " + " | ".join(str(total[s]) for s in STATUSES) + " |")
    return "\n".join(lines)


def blockers(cases, top: int) -> str:
    count = Counter(f"{c['status']}: {blocker(c['reason'])}" for c in cases
                    if c["status"] in ("unsupported", "fault", "error"))
    return "\n".join(f"| {n} | {reason} |" for reason, n in count.most_common(top))


def merged(paths) -> tuple[list, list]:
    """The cases and runs of several saved sweeps; an op swept twice is an error, not a double count."""
    cases, runs, seen = [], [], {}
    for path in paths:
        saved = json.loads(path.read_text())
        for run in saved["runs"]:
            if "wall" in run and run["op"] in seen:
                raise SystemExit(f"{path}: op {run['op']} was already swept in {seen[run['op']]}; "
                                 "pass disjoint shards (--every K with different --offset)")
            if "wall" in run:
                seen[run["op"]] = path
        cases += saved["cases"]
        runs += saved["runs"]
    # an op one shard's budget did not reach and another file swept is not "not started"
    return cases, [run for run in runs if "wall" in run or run["op"] not in seen]


def with_reruns(cases, runs, rerun_paths) -> tuple[list, list]:
    """The shards' cases with every op a later sweep re-ran (`--rerun`: another --python, a newer commit)
    taken from its latest re-run, so each case counts once, with its latest result."""
    for path in rerun_paths:
        saved = json.loads(path.read_text())
        again = {run["op"] for run in saved["runs"] if "wall" in run}
        unknown = again - {run["op"] for run in runs}
        if unknown:
            raise SystemExit(f"{path}: re-ran {len(unknown)} op(s) the --report shards do not hold "
                             f"(e.g. {sorted(unknown)[0]}); a re-run replaces ops, it does not add them")
        folders = [op_key(Path(op)) for op in again]
        cases = [c for c in cases if not any(in_folder(c, f) for f in folders)] + saved["cases"]
        runs = [run for run in runs if run["op"] not in again] + [run for run in saved["runs"] if "wall" in run]
    return cases, runs


def op_key(op: Path) -> tuple[str, str]:
    """An op folder as its cases name it: the repository's name and the folder relative to the repository."""
    root = cmake.find_root(op)
    return root.name, op.relative_to(root).as_posix()


def in_folder(case: dict, folder: tuple[str, str]) -> bool:
    repository, relative = folder
    return case["repository"] == repository and case["file"].split(",")[0].startswith(relative + "/")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+", help="operator repositories (or category / op folders)")
    parser.add_argument("--every", type=int, default=1, metavar="K", help="sweep every K-th op only")
    parser.add_argument("--offset", type=int, default=0, metavar="O", help="start at the O-th op (0 <= O < K)")
    parser.add_argument("--budget", type=float, default=3600, metavar="S", help="stop starting ops after S seconds")
    parser.add_argument("--jobs", type=int, default=1, help="ascgen ut --jobs")
    parser.add_argument("--product", help="ascgen ut --product")
    parser.add_argument("--python", metavar="PY", help="ascgen ut --python: the Python the data scripts run with")
    parser.add_argument("--time-limit", default="20", help="ascgen ut --time-limit (a case is killed at 2x + 10 s)")
    parser.add_argument("--host", action="store_true", help="sweep the op_host tiling UTs (ascgen ut --host)")
    parser.add_argument("--top", type=int, default=15, help="blockers listed")
    parser.add_argument("--out", type=Path, help="write every case and run as JSON here")
    parser.add_argument("--report", type=Path, nargs="+", metavar="JSON",
                        help="print the tables of saved --out files (shards are merged), no sweep")
    parser.add_argument("--rerun", type=Path, nargs="+", default=[], metavar="JSON",
                        help="with --report: saved sweeps that re-ran some of the shards' ops; each such op's "
                             "cases are taken from the latest of them (given in order)")
    args = parser.parse_args()
    if not 0 <= args.offset < args.every:
        parser.error(f"--offset {args.offset} must be in [0, --every {args.every})")
    ops = op_folders(args.paths, args.host)
    chosen = ops[args.offset::args.every]
    if args.report:
        cases, runs = with_reruns(*merged(args.report), args.rerun)
        label = "shards " + ", ".join(p.name for p in args.report + args.rerun)
    else:
        label = f"every {args.every} from {args.offset}"
        print(f"{len(ops)} op folders with {'op_host tiling' if args.host else 'kernel'} UTs; sweeping {len(chosen)} "
              f"(every {args.every} from {args.offset})", file=sys.stderr)
        signal.signal(signal.SIGTERM, _stop)
        try:
            cases, runs = sweep(chosen, args)
        except KeyboardInterrupt:
            print("bench_ut: stopped; the op being swept was stopped with it", file=sys.stderr)
            return 130
    roots = {cmake.find_root(Path(p)).name: cmake.find_root(Path(p)) for p in args.paths}
    cases = expand(cases, roots)
    if args.out and not args.report:
        args.out.write_text(json.dumps({"cases": cases, "runs": runs}, indent=1))
    timed = [c["seconds"] for c in cases if c["seconds"] > 0 and c["test"] != "*"]
    builds = [r["build"] for r in runs if r.get("ran")]          # ops whose program built and ran
    print(f"\nops swept: {sum(1 for r in runs if 'wall' in r)} of {len(ops)} "
          f"({label}; {sum(1 for r in runs if 'skipped' in r)} not started: time budget)")
    print(table(cases))
    passed = sum(c["status"].startswith("passed") for c in cases)
    compared = [c for c in cases if c["status"] in ("passed-compared", "wrong")]
    print(f"\npassed {passed} of {len(cases)} cases ({100 * passed / max(1, len(cases)):.0f}%); "
          f"wrong {sum(c['status'] == 'wrong' for c in cases)}; of {len(compared)} compared, "
          f"{sum(c['status'] == 'passed-compared' for c in compared)} passed-compared")
    print("\n| cases | top blockers |\n|---:|---|\n" + blockers(cases, args.top))
    if timed:
        print(f"\nmedian seconds per case, build cached: {statistics.median(timed):.2f} s over {len(timed)} case(s)")
    if builds:
        print(f"cold build + listing per op that built (precompiled library header warm): first {builds[0]:.0f} s, "
              f"median {statistics.median(builds):.0f} s over {len(builds)} op(s)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SpecError as error:
        sys.exit(f"bench_ut.py: {error}")
