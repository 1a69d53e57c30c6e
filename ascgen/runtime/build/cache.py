"""The cache folder as a whole: what is in it, how big it is, and keeping it under its cap.

Everything ascgen caches lives under `config.cache_dir()`: compiled kernels (`<name>-<key>.so` with its
`.json` manifest and `.lock`), the core library, rewritten host programs (`host/`), source analyses
(`analysis/`), the checker's precompiled headers (`check/`), and whatever else a part keeps in its own
subfolder. An *entry* is one stem in one folder (`add-4baf...` = its .so + .json + .lock); its last use is
the newest modification time among its files (a cache hit touches the manifest). Names starting with a
dot are builds in progress and are never evicted.
"""
from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from ascgen import config
from ascgen.errors import SpecError

TAG = "CACHEDIR.TAG"
_TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
             "# This folder is a cache created by ascgen (compiled Ascend C kernels); `ascgen cache clear` empties it.\n")


# Folders whose files only work together: the devkit backend's precompiled headers, its host library and
# object cache, its generated tiling header with the library's header links. Evicted whole or not at all
# (a precompiled header without its header, or half the links of lib/, would break the next build).
WHOLE_FOLDERS = ("devkit-",)


@dataclass(frozen=True)
class Entry:
    folder: str           # "" for the top level, else the subfolder ("host", "check"...)
    stem: str
    files: tuple[Path, ...]
    size: int
    last_used: float

    @property
    def name(self) -> str:
        return f"{self.folder}/{self.stem}" if self.folder and self.stem else self.folder or self.stem


def ensure(folder: Path | None = None) -> Path:
    """The cache folder, created with its CACHEDIR.TAG (so backup tools skip it and `clear` knows it)."""
    folder = folder or config.cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    tag = folder / TAG
    if not tag.exists():
        try:
            tag.write_text(_TAG_TEXT)
        except OSError:
            pass            # a read-only cache still works for reading
    return folder


def touch(path: Path) -> None:
    """Record a use of the entry `path` belongs to (a cache hit): the LRU order reads modification times."""
    try:
        os.utime(path)
    except OSError:
        pass


def _stem(name: str) -> str:
    return name.split(".", 1)[0]


def _files(path: Path) -> list[Path]:
    """The files (and symlinks) under `path`. Dot-named items are another process's build in progress and are
    left out; what vanishes while being read (another process renaming or evicting it) is skipped."""
    if not path.is_dir():
        return [path]
    found = []
    for root, dirs, names in os.walk(path, onerror=lambda _err: None):
        base = Path(root)
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [base / n for n in names if not n.startswith(".")]
        found += [base / d for d in dirs if (base / d).is_symlink()]
    return found


def _lstat(path: Path):
    try:
        return path.lstat()
    except OSError:      # removed by another process since it was listed
        return None


def _children(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def entries(folder: Path | None = None) -> list[Entry]:
    """Every entry, least recently used first."""
    root = folder or config.cache_dir()
    if not root.is_dir():
        return []
    groups: dict[tuple[str, str], list[Path]] = {}
    for item in root.iterdir():
        if item.name.startswith(".") or item.name == TAG:
            continue
        if item.is_dir() and item.name.startswith(WHOLE_FOLDERS):
            groups[(item.name, "")] = _files(item)
        elif item.is_dir():
            for sub in _children(item):
                if not sub.name.startswith("."):
                    groups.setdefault((item.name, _stem(sub.name)), []).extend(_files(sub))
        else:
            groups.setdefault(("", _stem(item.name)), []).append(item)
    found = []
    for (sub, stem), files in groups.items():
        stats = [st for st in map(_lstat, files) if st is not None]
        if stats:
            found.append(Entry(sub, stem, tuple(files), sum(s.st_size for s in stats),
                               max(s.st_mtime for s in stats)))
    return sorted(found, key=lambda e: (e.last_used, e.name))


def in_progress(folder: Path | None = None) -> list[Path]:
    """Dot-named items: builds in progress (or left by a killed process)."""
    root = folder or config.cache_dir()
    return sorted(p for p in root.iterdir() if p.name.startswith(".")) if root.is_dir() else []


def total_size(items: list[Entry]) -> int:
    return sum(e.size for e in items)


def _remove(entry: Entry) -> None:
    # The manifest first: a reader that no longer sees it rebuilds instead of loading a half-removed entry.
    for path in sorted(entry.files, key=lambda p: p.suffix != ".json"):
        try:
            path.unlink()
        except OSError:
            pass
    if entry.folder:
        for parent in {p.parent for p in entry.files}:
            _remove_empty(parent, stop=config.cache_dir() / entry.folder)


def _remove_empty(folder: Path, stop: Path) -> None:
    while folder != stop and stop in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def evict(limit: int | None = None, keep: Path | None = None) -> list[Entry]:
    """Remove least recently used entries until the cache fits `limit` (default: the configured cap).
    The entry holding `keep` (the one just built) is never removed. Returns what was removed."""
    limit = config.cache_limit() if limit is None else limit
    if limit <= 0:
        return []
    items = entries()
    size = total_size(items)
    removed = []
    for entry in items:
        if size <= limit:
            break
        if keep is not None and keep in entry.files:
            continue
        _remove(entry)
        size -= entry.size
        removed.append(entry)
    return removed


def clear() -> tuple[int, int]:
    """Empty the cache folder; returns (entries removed, bytes freed). Refuses a folder that is not
    recognisably ascgen's, so a mistaken ASCGEN_CACHE_DIR=$HOME never deletes anyone's files."""
    root = config.cache_dir()
    if not root.is_dir():
        return 0, 0
    if not (root / TAG).is_file():
        raise SpecError(f"{root} has no {TAG}, so it may not be an ascgen cache: refusing to empty it. "
                        "Hint: check ASCGEN_CACHE_DIR, or delete the folder yourself.")
    items = entries()
    freed = total_size(items)
    for item in root.iterdir():
        if item.name == TAG:
            continue
        if item.is_dir() and not item.is_symlink():
            shutil.rmtree(item, ignore_errors=True)
        else:
            try:
                item.unlink()
            except OSError:
                pass
    return len(items), freed


def human(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def age(seconds_since_epoch: float) -> str:
    delta = max(0.0, time.time() - seconds_since_epoch)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if delta >= size:
            return f"{delta / size:.0f} {unit} ago"
    return "just now"
