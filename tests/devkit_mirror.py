"""Where the public asc-devkit sources are on this machine: a bare git snapshot read with `git show`
(its files are never copied into this repository). ASCGEN_ASC_DEVKIT overrides the default place."""
from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

DEFAULT = Path("/work/.mirror/mirror-cann+asc-devkit/repo")


def location() -> Path:
    return Path(os.environ.get("ASCGEN_ASC_DEVKIT") or DEFAULT)


@functools.lru_cache(maxsize=1)
def find() -> Path | None:
    """The mirror if it is a readable git snapshot, else None."""
    path = location()
    try:
        ok = subprocess.run(["git", "-C", str(path), "rev-parse", "--verify", "-q", "HEAD"],
                            capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return None
    return path if ok else None


def missing_reason() -> str:
    return f"the asc-devkit mirror is not on this machine (set ASCGEN_ASC_DEVKIT; looked at {location()})"
