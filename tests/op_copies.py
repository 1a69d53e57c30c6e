"""Edited copies of operator folders for tests: the repository mirrored with links, the op a real copy whose
op_kernel files carry the test's edits (a planted bug, a fix, a key guard)."""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from ascgen import config


def edit(text: str, old: str, new: str) -> str:
    """`text` with its one occurrence of `old` replaced (a second one would make the edit ambiguous)."""
    assert text.count(old) == 1, old
    return text.replace(old, new)


def line_of(path: Path, text: str) -> int:
    """The first line of `path` holding `text`."""
    lines = path.read_text(errors="replace").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if text in line)


def edited_copy(op_dir: Path, edits: dict[str, str]) -> Path:
    """The repository mirrored (links) with a real copy of the op's op_kernel whose files are `edits`. It lives
    in the (test) cache under a name made of its content, so its build is cached like any other: a copy in a
    fresh folder each run would change the include path and the forced header's path, so every build key."""
    digest = hashlib.sha256(repr((str(op_dir), sorted(edits.items()))).encode()).hexdigest()[:16]
    root = config.cache_dir() / "test-copies" / f"{op_dir.name}-{digest}"
    copy = root / op_dir.parent.name / op_dir.name
    if copy.is_dir():
        return copy
    root.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{root.name}-", dir=root.parent))
    repo = op_dir.parents[1]
    for entry in repo.iterdir():
        if entry.name != op_dir.parent.name:
            (work / entry.name).symlink_to(entry)
    (work / op_dir.parent.name).mkdir()
    for entry in op_dir.parent.iterdir():
        if entry.name != op_dir.name:
            (work / op_dir.parent.name / entry.name).symlink_to(entry)
    op_copy = work / op_dir.parent.name / op_dir.name
    op_copy.mkdir()
    for entry in op_dir.iterdir():          # op_kernel a real copy; the rest (op_host...) linked: its build is shared
        if entry.name == "op_kernel":
            shutil.copytree(entry, op_copy / entry.name, symlinks=True)
        else:
            (op_copy / entry.name).symlink_to(entry)
    for name, text in edits.items():
        (work / op_dir.parent.name / op_dir.name / "op_kernel" / name).write_text(text)
    try:
        os.rename(work, root)               # whole or not at all (another worker may have made it first)
    except OSError:
        shutil.rmtree(work, ignore_errors=True)
    return copy
