"""Cache integrity: a cached shared object is loaded only if it is the one that was built.

`dlopen` of a truncated .so can kill the process with SIGBUS, and a zero-length or random file fails
with an untyped OSError on every later load. So the manifest records the .so's size and sha256 at build
time (`artifact_record`), and `verified` checks both before anything loads it; a damaged entry is
rebuilt (build.compile_shared). Also here: removing build folders and temporary files left by a killed
compiler (`clean_stale`), and the choice of a writable cache folder (`writable_root`).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import tempfile
import time
from pathlib import Path

from ascgen import console
from ascgen.errors import CacheError

BUILD_PREFIX = ".build-"
KEEP_MARKER = "KEPT-FOR-DEBUG"     # ASCGEN_DEBUG build folders: kept on purpose, never cleaned
STALE_AFTER_S = 3 * 600            # past any compile (build.COMPILE_TIMEOUT_S per step): surely abandoned

_verified: dict[tuple, bool] = {}  # (path, inode, size, mtime) -> hash matched, so a process hashes once
_fallback: Path | None = None


# ---- artifact checks --------------------------------------------------------------------------------

def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def artifact_record(so_path: Path) -> dict:
    """The manifest fields that identify a built .so."""
    return {"so_size": so_path.stat().st_size, "so_sha256": _sha256(so_path)}


def problem(so_path: Path, manifest: Path) -> str | None:
    """Why the entry must not be loaded (missing, unreadable manifest, size or hash mismatch), or None."""
    try:
        record = json.loads(manifest.read_text())
        st = so_path.stat()
    except FileNotFoundError:
        return "missing"
    except (OSError, ValueError) as exc:
        return f"unreadable manifest ({exc})"
    if not isinstance(record, dict) or "so_sha256" not in record or "so_size" not in record:
        return "the manifest records no size and hash (written by an older ascgen)"
    if st.st_size != record["so_size"]:
        return f"size {st.st_size} bytes, {record['so_size']} expected (truncated or overwritten)"
    stamp = (str(so_path), st.st_ino, st.st_size, st.st_mtime_ns, record["so_sha256"])
    if stamp not in _verified:
        try:
            _verified[stamp] = _sha256(so_path) == record["so_sha256"]
        except OSError as exc:
            return f"unreadable ({exc.strerror})"
    return None if _verified[stamp] else "its content hash differs from the one recorded at build time"


def discard(so_path: Path, manifest: Path, why: str) -> None:
    """Remove a damaged entry (manifest first: a reader that sees no manifest does not trust the .so)."""
    if why != "missing":
        console.warn(f"cached module {so_path.name} is damaged ({why}); rebuilding it")
    for path in (manifest, so_path):
        try:
            os.unlink(path)
        except OSError:
            pass


# ---- stale build folders ----------------------------------------------------------------------------

def _host() -> str:
    return "".join(c if c.isalnum() else "_" for c in socket.gethostname())[:20] or "host"


def build_folder_prefix(name: str) -> str:
    """`.build-<name>-<host>-<pid>-`: enough to tell later whether its builder is still alive."""
    return f"{BUILD_PREFIX}{name}-{_host()}-{os.getpid()}-"


def _builder_gone(folder: Path, now: float) -> bool:
    parts = folder.name.rsplit("-", 3)      # [.build-<name>, host, pid, random]
    try:
        age = now - folder.stat().st_mtime
    except OSError:
        return False
    if age > STALE_AFTER_S:
        return True
    if len(parts) == 4 and parts[2].isdigit() and parts[1] == _host():
        try:
            os.kill(int(parts[2]), 0)
        except ProcessLookupError:
            return True            # same machine, the process is gone (killed mid-compile)
        except OSError:
            return False
    return False


def clean_stale(cache: Path) -> int:
    """Remove build folders and *.tmp files whose builder died. Returns how many were removed."""
    removed, now = 0, time.time()
    try:
        entries = list(cache.iterdir())
    except OSError:
        return 0
    for entry in entries:
        if entry.name.startswith(BUILD_PREFIX) and entry.is_dir():
            if (entry / KEEP_MARKER).exists() or not _builder_gone(entry, now):
                continue
            shutil.rmtree(entry, ignore_errors=True)
            removed += 1
        elif entry.name.startswith(".") and entry.name.endswith(".tmp"):
            try:
                if now - entry.stat().st_mtime > STALE_AFTER_S:
                    entry.unlink()
                    removed += 1
            except OSError:
                pass
    return removed


# ---- a cache folder we can write ----------------------------------------------------------------------

def _writable(folder: Path) -> str | None:
    """None if `folder` exists (or was created) and takes files, else why not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".probe-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
        return None
    except OSError as exc:
        return exc.strerror or str(exc)


def writable_root(configured: Path) -> Path:
    """`configured` if it can be written; else a per-user folder under the system temp folder, with a
    warning naming both and ASCGEN_CACHE_DIR. CacheError if neither can be written."""
    global _fallback
    why = _writable(configured)
    if why is None:
        return configured
    if _fallback is not None:
        return _fallback
    fallback = Path(tempfile.gettempdir()) / f"ascgen-cache-{os.getuid()}"
    why_fallback = _writable(fallback)
    if why_fallback is not None:
        raise CacheError(f"the ascgen cache folder {configured} cannot be written ({why}), nor the fallback "
                         f"{fallback} ({why_fallback}). Hint: set ASCGEN_CACHE_DIR to a folder you can write.")
    console.warn(f"the ascgen cache folder {configured} cannot be written ({why}); using {fallback} for this "
                 "run. Hint: set ASCGEN_CACHE_DIR to a writable folder to keep builds between runs.")
    _fallback = fallback
    return fallback

