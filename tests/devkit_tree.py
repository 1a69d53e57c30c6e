"""The asc-devkit tree the tests read (its examples run unchanged; never copied into this repository).

It comes from the one setting `ascgen.config.asc_devkit()` (ASCGEN_ASC_DEVKIT). `.ci/run` extracts the
pinned snapshot and sets it, so in CI (CI set) a missing tree fails the test; elsewhere it skips. Either
way the message says how to provide it."""
from __future__ import annotations

import os
import shutil
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
