"""The scratch folder a UT program runs in, and the Python shim that records its data scripts.

Kernel UTs copy their data folder with paths relative to the build folder they run in
(`system("cp -rf ../../../../<cat>/<op>/tests/ut/op_kernel/<op>_data ./")`, 4 levels up to the repository
root) and then run `python3 gen_data.py` / `python3 compare_data.py` inside the copy. So each run gets:

    <scratch>/repo/                the repository mirrored: every top-level entry a symbolic link, except
                                   the op's own path, whose folders are real down to the op folder; the
                                   op's `tests/` folder is a copy (what a test may write into); the rest of
                                   the op folder is linked
    <scratch>/repo/build/<n>/ut/op_kernel/    the working folder of case n (4 levels below repo/)
    <scratch>/bin/python3, python  the shim, first on PATH

Nothing is written into the user's checkout: the tests write into their working folder and into the
copied `tests/`; the links are only read through. A test that reaches 7 levels up (into a tree the
repository does not have) finds nothing there, as in the repository's own build.

The shim runs the configured Python (`--python`) with the same arguments, passes its output through,
and appends one JSON line per run to the log named by ASCGEN_UT_SHIM_LOG: argv, working folder, exit
status and the last lines of its output (verdict.py reads them).
"""
from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

from ascgen.errors import SpecError
from ascgen.ut.cmake import Rule

RUN_DEPTH = ("build", "{n}", "ut", "op_kernel")     # 4 levels below the mirrored repository root
SHIM_LOG = "ASCGEN_UT_SHIM_LOG"
SHIM = '''#!{python}
# ascgen ut's Python shim (ascgen/ut/scratch.py): runs {python} and records the run.
import json, os, subprocess, sys
real = {python!r}
try:
    proc = subprocess.run([real, *sys.argv[1:]], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    status, out, err = proc.returncode, proc.stdout, proc.stderr
except OSError as exc:
    status, out, err = 127, b"", str(exc).encode()
sys.stdout.buffer.write(out)
sys.stdout.flush()
sys.stderr.buffer.write(err)
sys.stderr.flush()
log = os.environ.get({log!r})
if log:
    def tail(b):
        return b.decode(errors="replace")[-6000:]
    record = {{"argv": sys.argv[1:], "cwd": os.getcwd(), "status": status, "stdout": tail(out), "stderr": tail(err)}}
    with open(log, "a") as f:
        f.write(json.dumps(record) + "\\n")
sys.exit(status)
'''


def resolve_python(python: str) -> str:
    found = python if os.sep in python else shutil.which(python)
    if not found or not os.access(found, os.X_OK):
        raise SpecError(f"--python {python}: no such executable")
    return os.path.abspath(found)


class Scratch:
    """A scratch folder for one UT program (rule); removed on close."""

    def __init__(self, rule: Rule, python: str):
        self.rule = rule
        self.folder = Path(tempfile.mkdtemp(prefix=f"ascgen-ut-{rule.op}-"))
        self.repo = self.folder / "repo"
        self.bin = self.folder / "bin"
        self._mirror()
        self._shim(python)
        self._cases = 0

    def _mirror(self) -> None:
        root, op_dir = self.rule.repository, self.rule.op_dir
        # Real folders from the root down to the op folder; links for everything else.
        real = {root / p for p in op_dir.relative_to(root).parents if str(p) != "."} | {op_dir}
        self.repo.mkdir()
        todo = [root]
        while todo:
            src = todo.pop()
            dst = self.repo / src.relative_to(root)
            dst.mkdir(exist_ok=True)
            for entry in sorted(src.iterdir()):
                target = dst / entry.name
                if entry in real and entry.is_dir() and not entry.is_symlink():
                    todo.append(entry)
                elif entry == op_dir / "tests":
                    shutil.copytree(entry, target, symlinks=True)
                elif src == root and entry.name == RUN_DEPTH[0]:
                    continue                # the working folders live there
                else:
                    target.symlink_to(entry)

    def _shim(self, python: str) -> None:
        self.bin.mkdir()
        text = SHIM.format(python=python, log=SHIM_LOG)
        for name in ("python3", "python"):
            path = self.bin / name
            path.write_text(text)
            path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)

    def case_dir(self) -> tuple[Path, Path]:
        """(a fresh working folder, its shim log) for one run of the program."""
        self._cases += 1
        cwd = self.repo.joinpath(*(p.format(n=self._cases) for p in RUN_DEPTH))
        cwd.mkdir(parents=True)
        return cwd, cwd.parent / f"shim-{self._cases}.jsonl"

    def env(self, log: Path) -> dict:
        env = dict(os.environ)
        env["PATH"] = str(self.bin) + os.pathsep + env.get("PATH", "")
        env[SHIM_LOG] = str(log)
        return env

    def close(self) -> None:
        # Never follow the links into the user's tree: rmtree removes a link, not its target.
        shutil.rmtree(self.folder, ignore_errors=True)
