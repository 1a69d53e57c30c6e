"""Which existing test exercises each implemented intrinsic of the devkit model (the known-answer coverage
column of docs/intrinsics.md), measured, not guessed.

    python benchmarks/intrinsic_coverage.py [--out tests/devkit/intrinsic_coverage.json] [TESTS...]

Runs the devkit-backend tests (default: DEFAULT_TESTS) in a fresh cache with a compiler wrapper that builds
every kernel module with debug information (-g instead of -g0: the same code, the generated code is not
changed by it) and lists the global functions the module's DWARF describes at the top level: every intrinsic
that some instantiated library code calls, inlined or not. Each is attributed to the test that was running
(PYTEST_CURRENT_TEST; a module-scoped fixture's build counts for the first test using it). Those tests
compare their kernels' results with numpy or with the builtin backend, so an intrinsic listed under a test
ran inside a checked kernel (a branch of it may still be unexercised: the mapping is per function).

Takes the tests' own time plus the cold builds (3 precompiled library headers): about 15-30 min on a loaded
2-core machine. Writes the mapping (name -> up to 3 test ids) and rewrites the generated files.
"""
from __future__ import annotations

import argparse
import json
import os
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DEFAULT_TESTS = ("tests/devkit/test_vector_intrinsics.py", "tests/runtime/test_devkit_backend.py",
                 "tests/runtime/test_devkit_cube.py", "tests/e2e/test_backends_diff.py",
                 "tests/superkernel/test_devkit_verdicts.py", "tests/library/test_devkit_examples.py")
PER_NAME = 3

WRAPPER = r'''#!{python}
"""Compile as asked, with -g for -g0; after a devkit module links, log the top-level functions of its DWARF."""
import json, os, re, subprocess, sys
args = [("-g" if a == "-g0" else a) for a in sys.argv[1:]]
rc = subprocess.call([os.environ["ASCGEN_COVERAGE_CXX"], *args])
out = args[args.index("-o") + 1] if "-o" in args else ""
if rc == 0 and out.endswith(".so") and "-DASCGEN_DEVKIT=1" in args:
    dump = subprocess.run(["readelf", "--debug-dump=info", "--dwarf-depth=2", out], capture_output=True, text=True).stdout
    names, in_sub = set(), False
    for line in dump.splitlines():
        if "Abbrev Number" in line:
            in_sub = "(DW_TAG_subprogram)" in line
        elif in_sub and "DW_AT_name" in line:
            names.add(line.rsplit(": ", 1)[-1].strip().split("<")[0])   # vadd<float> -> vadd
    with open(os.environ["ASCGEN_COVERAGE_LOG"], "a") as log:
        log.write(json.dumps({{"test": os.environ.get("PYTEST_CURRENT_TEST", ""), "names": sorted(names)}}) + "\n")
sys.exit(rc)
'''


def measure(tests: list[str]) -> dict[str, list[str]]:
    from ascgen.runtime import build
    from ascgen.runtime.backends.devkit import intrinsics as table
    implemented = {r.name for r in table.ROWS if set(r.cells.values()) & set("IPF")}
    with tempfile.TemporaryDirectory(prefix="ascgen-coverage-") as tmp:
        wrapper, log = Path(tmp) / "cxx", Path(tmp) / "log.jsonl"
        wrapper.write_text(WRAPPER.format(python=sys.executable))
        wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
        env = {**os.environ, "ASCGEN_CXX": str(wrapper), "ASCGEN_COVERAGE_CXX": build.find_compiler(),
               "ASCGEN_COVERAGE_LOG": str(log), "ASCGEN_TEST_CACHE_DIR": str(Path(tmp) / "cache"),
               "ASCGEN_CACHE_DIR": str(Path(tmp) / "user-cache")}
        subprocess.run([sys.executable, "-m", "pytest", *tests, "-q", "-n", "0", "-p", "no:cacheprovider"],
                       cwd=REPO, env=env, check=False)
        found: dict[str, list[str]] = {}
        for line in log.read_text().splitlines() if log.is_file() else []:
            record = json.loads(line)
            test = record["test"].rsplit(" (", 1)[0]
            for name in set(record["names"]) & implemented:
                tests_of = found.setdefault(name, [])
                if test and test not in tests_of and len(tests_of) < PER_NAME:
                    tests_of.append(test)
    return dict(sorted(found.items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/devkit/intrinsic_coverage.json")
    ap.add_argument("tests", nargs="*", default=list(DEFAULT_TESTS))
    a = ap.parse_args()
    started = time.time()
    mapping = measure(a.tests)
    about = (f"Measured by `python benchmarks/intrinsic_coverage.py` on {time.strftime('%Y-%m-%d')} over "
             f"{', '.join('`' + t + '`' for t in a.tests)} ({time.time() - started:.0f} s): a test is listed "
             "for an intrinsic when a kernel it builds and checks against a known answer (numpy or the builtin "
             "backend) instantiates the intrinsic (compiled into the checked kernel: a library branch that the test's "
             "arguments never take counts too). Rows with no test listed are not instantiated by any of these tests.")
    mapping = {"_about": about, **mapping}
    out = REPO / a.out
    out.write_text(json.dumps(mapping, indent=1) + "\n")
    from ascgen.runtime.backends.devkit import intrinsics as table
    table.write_all(mapping)
    print(f"{len(mapping) - 1} implemented intrinsics instantiated in tested kernels; wrote {out} and the generated files")


if __name__ == "__main__":
    main()
