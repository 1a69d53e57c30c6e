"""The edit-compile-run loop on the devkit backend (issue 22), row by row, side by side with an older checkout.

    python benchmarks/bench_loop.py [--against OLD_CHECKOUT] [--repeat 3] [--rows ROW ...] [--product ascend910b]

Rows (the table of docs/devkit.md "The edit-compile-run loop"):
  vector-first    first use of a product: an empty cache, then the add+relu kernel loaded on devkit (the core,
                  the precompiled library header, the module)
  vector-edit     the same kernel with a comment appended (a real recompile), the library header warm
  vector-cached   the unchanged kernel loaded again
  builtin-edit    the edited kernel on the builtin backend, for scale
  matmul-first    asc-devkit's 00_matmul/matmul example (a Matmul-API program) through `ascgen run`, an empty
                  cache: the library header, the host tiling library, the program
  matmul-edit     the same program with its source edited, everything else warm
  matmul-cached   the unchanged program again
  addrelu         add+relu on 2^24 float32 on devkit, as a ratio to numpy measured in the same process

Every measurement is a fresh process importing the checkout's own ascgen (PYTHONPATH), with its own cache
folder; the checkouts alternate, so a busy moment slows both. Printed: the median of --repeat per checkout and
the ratio this / before. The vector rows time `load()` inside the process; the matmul rows time the whole
`python -m ascgen run` a user types. Needs ASCGEN_ASC_DEVKIT. Nothing is written outside a temporary folder.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
from bench_devkit import ADD_RELU, _LINE  # noqa: E402 - benchmarks/bench_devkit.py, beside this script

MATMUL_EXAMPLE = "examples/01_simd_cpp_api/04_advanced_api/00_matmul/matmul"
ROWS = ("vector-first", "vector-edit", "vector-cached", "builtin-edit", "matmul-first", "matmul-edit",
        "matmul-cached", "addrelu")
STEP_TIMEOUT_S = 900

LOAD = """import sys, time
from ascgen.runtime.loader import load
src = open(sys.argv[1]).read()
t = time.perf_counter(); load(src, sys.argv[2], backend=sys.argv[3], filename="add_relu.cpp")
print(time.perf_counter() - t)
"""

class Checkout:
    """One tree of ascgen, its warm cache and its copy of the matmul example."""

    def __init__(self, label: str, tree: Path, work: Path, product: str):
        self.label, self.tree, self.work, self.product = label, tree, work / label, product
        self.warm = self.work / "cache"
        self.kernel = self.work / "add_relu.cpp"
        self.example = self.work / "matmul"
        self.edits = 0
        self.work.mkdir(parents=True)
        self.kernel.write_text(ADD_RELU)

    def env(self, cache: Path) -> dict:
        env = dict(os.environ, PYTHONPATH=str(self.tree), ASCGEN_CACHE_DIR=str(cache))
        env.pop("ASCGEN_TEST_CACHE_DIR", None)
        return env

    def python(self, code: str, *args: str, cache: Path) -> float:
        out = _run([sys.executable, "-c", code, *args], self.env(cache), self.work)
        return float(out.strip().splitlines()[-1])

    def edit(self, path: Path) -> None:
        self.edits += 1
        path.write_text(path.read_text() + f"\n// edit {self.edits}\n")

    def matmul(self, cache: Path) -> float:
        if not self.example.is_dir():
            shutil.copytree(Path(os.environ["ASCGEN_ASC_DEVKIT"]) / MATMUL_EXAMPLE, self.example)
            build = self.example / "build"
            (build / "input").mkdir(parents=True)
            (build / "output").mkdir()
            _run([sys.executable, "../scripts/gen_data.py"], self.env(cache), build)
        build = self.example / "build"
        start = time.perf_counter()
        _run([sys.executable, "-m", "ascgen", "run", str(self.example / "matmul.asc"), "--product", self.product,
              "--cwd", str(build), "--backend", "devkit"], self.env(cache), build)
        seconds = time.perf_counter() - start
        verdict = _run([sys.executable, "../scripts/verify_result.py", "output/output.bin", "output/golden.bin"],
                       self.env(cache), build)
        if "fail" in verdict.lower():
            raise SystemExit(f"bench_loop: {self.label}: the matmul example's result is wrong:\n{verdict[-2000:]}")
        return seconds

    def add_relu_ratio(self) -> float:
        """devkit / numpy wall time of bench_devkit.py's add+relu (it checks bit-exactness), on this checkout."""
        out = _run([sys.executable, str(REPO / "benchmarks" / "bench_devkit.py"), "addrelu", "--reps", "5",
                    "--tree", str(self.tree)], self.env(self.warm), self.work)
        wall = {m.group(1): float(m.group(2)) for m in map(_LINE.match, out.splitlines()) if m}
        if "bit-exact vs numpy: False" in out:
            raise SystemExit(f"bench_loop: {self.label}: the devkit add+relu is not bit-exact:\n{out[-2000:]}")
        return wall["devkit"] / wall["numpy"]

    def measure(self, row: str) -> float:
        """One sample of `row`, in seconds (addrelu: the ratio)."""
        fresh = Path(tempfile.mkdtemp(prefix="cold-", dir=self.work))
        try:
            if row == "vector-first":
                return self.python(LOAD, str(self.kernel), self.product, "devkit", cache=fresh)
            if row in ("vector-edit", "builtin-edit"):
                self.edit(self.kernel)
                backend = "builtin" if row == "builtin-edit" else "devkit"
                return self.python(LOAD, str(self.kernel), self.product, backend, cache=self.warm)
            if row == "vector-cached":
                return self.python(LOAD, str(self.kernel), self.product, "devkit", cache=self.warm)
            if row == "matmul-first":
                return self.matmul(fresh)
            if row == "matmul-edit":
                self.edit(self.example / "matmul.asc")
                return self.matmul(self.warm)
            if row == "matmul-cached":
                return self.matmul(self.warm)
            if row == "addrelu":
                return self.add_relu_ratio()
            raise ValueError(row)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)

    def warm_up(self, rows) -> None:
        """Fill the warm cache before the first edit is timed: the edit rows measure an edit, not a first use."""
        if any(r.startswith("vector") or r == "builtin-edit" for r in rows):
            self.python(LOAD, str(self.kernel), self.product, "devkit", cache=self.warm)
            self.python(LOAD, str(self.kernel), self.product, "builtin", cache=self.warm)
        if any(r.startswith("matmul") for r in rows):
            self.matmul(self.warm)


def _run(cmd, env, cwd) -> str:
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=STEP_TIMEOUT_S)
    if proc.returncode != 0:
        raise SystemExit(f"bench_loop: `{' '.join(map(str, cmd))}` failed (exit {proc.returncode}):\n"
                         f"{(proc.stderr or proc.stdout)[-3000:]}")
    return proc.stdout


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--against", help="an older checkout (a git worktree) to measure side by side")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--rows", nargs="+", choices=ROWS, default=list(ROWS))
    p.add_argument("--product", default="ascend910b")
    args = p.parse_args(argv)
    if not os.environ.get("ASCGEN_ASC_DEVKIT"):
        print("bench_loop: set ASCGEN_ASC_DEVKIT to an asc-devkit tree", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="ascgen-bench-loop-"))
    try:
        trees = [("this", REPO)] + ([("before", Path(args.against).resolve())] if args.against else [])
        checkouts = [Checkout(label, tree, work, args.product) for label, tree in trees]
        for c in checkouts:
            c.warm_up(args.rows)
        samples = {(c.label, row): [] for c in checkouts for row in args.rows}
        for _ in range(args.repeat):
            for row in args.rows:
                for c in checkouts:
                    samples[c.label, row].append(c.measure(row))
        _print(args, checkouts, samples)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _print(args, checkouts, samples) -> None:
    load = os.getloadavg()
    print(f"bench_loop: {args.product}, median of {args.repeat}, load average {load[0]:.1f} {load[1]:.1f} "
          f"{load[2]:.1f} at the end")
    labels = [c.label for c in checkouts]
    head = " | ".join(labels) + (" | this / before" if len(labels) == 2 else "")
    print(f"| row | {head} |")
    print("|---|" + "---|" * (len(labels) + (len(labels) == 2)))
    for row in args.rows:
        medians = [statistics.median(samples[label, row]) for label in labels]
        unit = "x numpy" if row == "addrelu" else " s"
        cells = " | ".join(f"{m:.2f}{unit}" for m in medians)
        if len(medians) == 2:
            cells += f" | {medians[0] / medians[1]:.2f}"
        print(f"| {row} | {cells} |")


if __name__ == "__main__":
    sys.exit(main())
