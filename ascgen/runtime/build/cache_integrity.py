"""Cache integrity: a cached shared object is loaded only if it is the one that was built.

`dlopen` of a truncated .so can kill the process with SIGBUS, and a zero-length or random file fails
with an untyped OSError on every later load. So the manifest records the .so's size and sha256 at build
time (`artifact_record`), and `verified` checks both before anything loads it; a damaged entry is
rebuilt (build.compile_shared). Nothing is loaded from a folder or file another user owns or can write
(`check_trusted`). Also here: finding and removing build folders and temporary files, at any depth, left by
a killed build (`orphans`, `clean_stale`), and the choice of a writable cache folder (`writable_root`).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import tempfile
import time
from pathlib import Path

from ascgen import config, console
from ascgen.errors import CacheError

BUILD_PREFIX = ".build-"
KEEP_MARKER = "KEPT-FOR-DEBUG"     # ASCGEN_DEBUG build folders: kept on purpose, never cleaned
STALE_AFTER_S = 3 * 600            # past any compile (build.COMPILE_TIMEOUT_S per step): surely abandoned
NEAR_DEPTH = 2                     # clean_stale on every build: the folders this far below the cache
SWEEP_EVERY_S = 3600               # ...and every depth once this long after the last such sweep
SWEEP_STAMP = ".last-full-sweep"   # its time is the last full sweep's

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


def check_trusted(so_path: Path, manifest: Path) -> None:
    """CacheError unless the cache folder, the module and its manifest are owned by this user and writable by
    nobody else: whoever can write them can run code in this process. With ASCGEN_CACHE_SHARED=1 (a team cache
    chosen on purpose) other owners and group-writable ones are accepted; world-writable never."""
    for path in (so_path.parent, so_path, manifest):
        why = _untrusted(path)
        if why:
            folder = so_path.parent
            raise CacheError(
                f"refusing to load {so_path.name} from the cache folder {folder}: {path} {why}, so another user "
                f"could put code there that would run as you. Hint: point ASCGEN_CACHE_DIR at a folder of your "
                f"own (it is created 0700), or make it yours: `chown -R $USER {folder} && chmod -R go-w "
                f"{folder}`; a team cache shared on purpose: ASCGEN_CACHE_SHARED=1 (docs/runtime.md, \"Cache\").")


def _untrusted(path: Path) -> str | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None             # not there: nothing to load from it (the caller builds it)
    except OSError as exc:
        return f"cannot be checked ({exc.strerror})"
    if st.st_mode & 0o002:
        return f"is writable by every user (mode {st.st_mode & 0o7777:o})"
    if config.cache_shared():
        return None
    if st.st_uid != os.geteuid():
        return f"is owned by uid {st.st_uid}, not by you (uid {os.geteuid()})"
    if st.st_mode & 0o020:
        return f"is writable by its group (mode {st.st_mode & 0o7777:o})"
    return None


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


def process_tag() -> str:
    """`<host>-<pid>`: names what this process writes, so another can tell whether it still runs."""
    return f"{_host()}-{os.getpid()}"


def build_folder_prefix(name: str) -> str:
    """`.build-<name>-<host>-<pid>-`: enough to tell later whether its builder is still alive."""
    return f"{BUILD_PREFIX}{name}-{process_tag()}-"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True             # exists, owned by someone else
    return True


# The writer's pid in a temporary name: `-<host>-<pid>-` (build folders), `<host>-<pid>` (pin files), or a
# dotted `.<pid>` before the last suffix (the devkit backend's `.kernel_operator.h.<pid>.gch`, `.lib.<pid>`,
# `.<obj>.<pid>.tmp`), or the per-core copies' `.tmp<pid>`.
_WITH_HOST = re.compile(r"(?:^|-)(?P<host>[A-Za-z0-9_]+)-(?P<pid>\d+)(?:-|$)")
_PID_ONLY = re.compile(r"\.(?P<pid>\d+)(?:\.[A-Za-z]+)?$|\.tmp(?P<pid2>\d+)$")
QUIET_S = 60                    # a writer is surely gone when its pid is and the file did not change this long


def writer_alive(name: str, path: Path, now: float | None = None, stale_after: float = STALE_AFTER_S) -> bool:
    """Whether the process that writes `path` (named by `name`) may still be writing it: a process of this
    machine named in it is checked; otherwise only the age tells (past `stale_after`: gone)."""
    now = time.time() if now is None else now
    try:
        age = now - path.lstat().st_mtime
    except OSError:
        return False
    ours = [m for m in _WITH_HOST.finditer(name) if m.group("host") == _host()]
    if ours:
        return age <= stale_after and _pid_alive(int(ours[-1].group("pid")))
    if age > stale_after:
        return False
    m = _PID_ONLY.search(name)
    if m and not _WITH_HOST.search(name) and age > QUIET_S:
        return _pid_alive(int(m.group("pid") or m.group("pid2")))
    return True


def _is_temporary(name: str) -> bool:
    return name.startswith(".") or bool(re.search(r"\.tmp\d+$", name))


def orphans(cache: Path, depth: int | None = None) -> list[tuple[Path, int]]:
    """Temporary build files and folders whose writer is gone, with their sizes in bytes: at any depth, or in
    the folders at most `depth` below the cache. Symbolic links are never followed; the pin folder, the sweep
    stamp and ASCGEN_DEBUG build folders are not orphans."""
    found, now = [], time.time()
    for root, dirs, files in os.walk(cache, onerror=lambda _err: None):
        base = Path(root)
        for name in [*dirs, *files]:
            path = base / name
            if not _is_temporary(name) or (base == cache and name in (".pins", SWEEP_STAMP)) or path.is_symlink():
                continue
            if name in dirs and (path / KEEP_MARKER).exists():
                continue
            if not writer_alive(name, path, now):
                found.append((path, _size(path)))
        dirs[:] = [d for d in dirs if not _is_temporary(d) and not (base / d).is_symlink()]
        if depth is not None and len(base.relative_to(cache).parts) >= depth:
            dirs[:] = []
    return found


def _size(path: Path) -> int:
    if path.is_dir() and not path.is_symlink():
        return sum(_size(p) for p in path.iterdir())
    try:
        return path.lstat().st_size
    except OSError:
        return 0


def clean_stale(cache: Path, everywhere: bool | None = None) -> int:
    """Remove build folders and temporary files whose writer died. Returns how many.

    everywhere=None (what a build does): the cache's top two levels of folders every time (compiles, the
    precompiled headers and the host libraries write their temporaries there), and every depth when the last
    such sweep is older than SWEEP_EVERY_S. A full walk of a cache holding operator-repository UT trees lists
    about 90,000 names (1.1 s, 3 s cold, on every compile); a temporary left inside such a tree by a killed
    build waits at most an hour, or until `ascgen cache clear`."""
    if everywhere is None:
        everywhere = _sweep_due(cache)
    removed = 0
    for path, _ in orphans(cache, None if everywhere else NEAR_DEPTH):
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
            removed += 1
        except OSError:
            pass
    if everywhere:
        try:
            (cache / SWEEP_STAMP).touch()
        except OSError:
            pass
    return removed


def _sweep_due(cache: Path) -> bool:
    try:
        return time.time() - (cache / SWEEP_STAMP).stat().st_mtime > SWEEP_EVERY_S
    except OSError:
        return True


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
    """`configured` if it can be written; else a new private folder (tempfile.mkdtemp: 0700, a name nobody
    can guess, so nobody can plant a library there), once per process, with a warning naming both and
    ASCGEN_CACHE_DIR. CacheError if neither can be written."""
    global _fallback
    why = _writable(configured)
    if why is None:
        return configured
    if _fallback is not None and _fallback.is_dir():
        return _fallback
    try:
        fallback = Path(tempfile.mkdtemp(prefix=f"ascgen-cache-{os.getuid()}-"))
    except OSError as exc:
        raise CacheError(f"the ascgen cache folder {configured} cannot be written ({why}), nor a temporary one in "
                         f"{tempfile.gettempdir()} ({exc.strerror}). Hint: set ASCGEN_CACHE_DIR to a folder you "
                         "can write.") from exc
    console.warn(f"the ascgen cache folder {configured} cannot be written ({why}); using {fallback} for this "
                 "run. Hint: set ASCGEN_CACHE_DIR to a writable folder to keep builds between runs.")
    _fallback = fallback
    return fallback
