"""The asc-devkit tree the tests read (its examples run unchanged; never copied into this repository).

It comes from the one setting `ascgen.config.asc_devkit()` (ASCGEN_ASC_DEVKIT). `.ci/run` extracts the
pinned snapshot and sets it, so in CI (CI set) a missing tree fails the test; elsewhere it skips. Either
way the message says how to provide it."""
from __future__ import annotations

import contextlib
import io
import os
import runpy
import shutil
import sys
import warnings
from pathlib import Path

import pytest

from ascgen import config


def require() -> Path:
    """The tree, or fail (CI) / skip (elsewhere) with the instruction."""
    path = config.asc_devkit()
    if path is not None and (path / "examples").is_dir() and (path / "include").is_dir():
        return path
    where = f" ({path} has no include/ and examples/)" if path is not None else ""
    message = f"the asc-devkit tree is not available{where}: {config.ASC_DEVKIT_HINT}"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def read(tree: Path, name: str) -> str:
    """One file of the tree; a missing file fails (the snapshot is pinned, so it is a real change)."""
    path = tree / name
    if not path.is_file():
        pytest.fail(f"{name} is not in the asc-devkit tree at {tree}", pytrace=False)
    return path.read_text()


def extract(tree: Path, folder: str, dest: Path) -> Path:
    """Copy one example folder (without its figures and READMEs) into dest/<name>."""
    root = dest / Path(folder).name
    shutil.copytree(tree / folder, root, ignore=shutil.ignore_patterns("figures", "*.png", "*.md"))
    return root


def run_script(script: Path, args: list[str], cwd: Path) -> tuple[int, str]:
    """Run one of an example's Python scripts (gen_data.py, verify_result.py) in this interpreter: numpy is
    already loaded, and a fresh interpreter per script costs about 0.3 s of CPU, more than many a test
    itself. Returns (exit status, what it printed)."""
    old_cwd, old_argv, out = os.getcwd(), sys.argv, io.StringIO()
    code = 0
    try:
        os.chdir(cwd)
        sys.argv = [str(script), *args]
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")   # the examples' own numpy warnings are not ours to report
            runpy.run_path(str(script), run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        os.chdir(old_cwd)
        sys.argv = old_argv
    return code, out.getvalue()
