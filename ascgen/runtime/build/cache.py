"""The cache folder as a whole: what ascgen writes there, how big it is, keeping it under its cap, emptying it.

The folder is `config.cache_dir()`: ASCGEN_CACHE_DIR if ascgen created it, found it empty or finds its
CACHEDIR.TAG there, else that folder's `ascgen/` subfolder (a mistaken ASCGEN_CACHE_DIR=$HOME is never
written into, nor emptied). Inside it ascgen removes only the names it writes (OWNED_FILES, OWNED_FOLDERS;
docs/runtime.md, "Cache"), never follows a symbolic link and never leaves the folder:

    <name>-<key>.<deps>.so / .json    a compiled module and its manifest (size and hash); <deps>: the
                                      headers it read as they were (deps.py)
    <name>-<key>.lock / .deps         the key's build lock and the headers its last build read
    <name>-<key>.so.core<N>.so        the devkit backend's per-core copies of a module
    compilers.json, CACHEDIR.TAG      the compiler-identity memo, the tag
    host/ analysis/ check/ devkit-*/  rewritten host programs, source analyses, the checker's and the devkit
                                      backend's precompiled headers, its host library and tiling headers
    ops-host-*/                       host tiling of operators (ascgen/ops): the CANN host runtime, each
                                      op's tiling runner, their objects
    .build-*/, .*.tmp, ...            dot-named: builds in progress, never evicted; removed by
                                      cache_integrity.clean_stale once their writer is gone
    .pins/<host>-<pid>                the modules a live process has loaded: never evicted while it runs

An *entry* is one stem in one folder (`add-4baf...` = its .so + .json + .lock + copies); its last use is
the newest modification time among its files (a cache hit touches the manifest).
"""
from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from ascgen import config, console
from ascgen.runtime.build import cache_integrity

TAG = config.CACHE_TAG
COMPILER_MEMO = "compilers.json"     # build.compiler_identity's memo: bookkeeping like the tag, not an entry
PINS = ".pins"
PIN_STALE_S = 7 * 86400      # a pin file older than a week (pid reuse, another machine of a shared cache) is stale
OWNED_FILES = re.compile(r"""^(?:
    [\w.+-]+-[0-9a-f]{24}\.(?:lock|deps)          # a key's build lock, the headers its build read
  | [\w.+-]+-[0-9a-f]{24}(?:\.[0-9a-f]{16})?\.(?:so|json)   # a module and its manifest
  | [\w.+-]+-[0-9a-f]{24}(?:\.[0-9a-f]{16})?\.so\.core\d+\.so(?:\.tmp\d+)?   # the devkit backend's per-core copies
  | (?:devkit|ops-host)-[\w.-]+\.lock | compilers\.json | CACHEDIR\.TAG
  | \..+\.tmp                                     # a file being written, renamed into place when complete
)$""", re.X)
OWNED_FOLDERS = re.compile(r"^(?:host|analysis|check|libtest|sk_native|devkit-[\w.-]+|ops-host-[\w.-]+|pch-[\w.-]+|"
                           r"\.build-.+|\.devkit-.+|\.ops-host-.+)$")

# Folders whose files only work together: the precompiled headers (both backends'), the devkit host library and
# object cache, its generated tiling header with the library's header links; an operator's tiling runner and
# the host runtime it links. Evicted whole or not at all (a precompiled header without its header, or half
# the links of lib/, would break the next build).
WHOLE_FOLDERS = ("devkit-", "pch-", "ops-host-")

_pinned: set[tuple[str, str]] = set()   # (cache folder, stem) this process loaded
_warned: set[str] = set()


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


def owned(item: Path) -> bool:
    """Whether a top-level item of the cache folder is one ascgen writes (a symbolic link never is a folder)."""
    if _is_dir(item):
        return bool(OWNED_FOLDERS.match(item.name))
    return bool(OWNED_FILES.match(item.name))


def _is_dir(path: Path) -> bool:
    """A real folder, not a symbolic link to one: nothing here follows links out of the cache."""
    return path.is_dir() and not path.is_symlink()


def ensure(folder: Path | None = None) -> Path:
    """The cache folder, created 0700 with its CACHEDIR.TAG (config.cache_dir). Warns once when
    ASCGEN_CACHE_DIR names a folder of other files, so the cache went to its `ascgen/` subfolder."""
    folder = folder or config.cache_dir()
    configured, _ = config.cache_setting()
    if folder != configured and folder.parent == configured and str(configured) not in _warned:
        _warned.add(str(configured))
        console.warn(f"ASCGEN_CACHE_DIR={configured} holds other files and no {TAG}, so ascgen keeps its cache "
                     f"in {folder} and never touches the rest. Hint: point ASCGEN_CACHE_DIR at a new or empty "
                     "folder.")
    folder.mkdir(mode=0o777 if config.cache_shared() else 0o700, parents=True, exist_ok=True)
    return folder


def pin(so_path: Path) -> None:
    """Keep the entry of `so_path` from eviction while this process lives (it is loaded, or about to be):
    recorded in `.pins/<host>-<pid>`, which other processes read before they evict."""
    key = (str(so_path.parent), _stem(so_path.name))
    if key in _pinned:
        return
    _pinned.add(key)
    _write_pins(so_path.parent, [key[1]])


def _write_pins(root: Path, stems) -> None:
    try:
        (root / PINS).mkdir(mode=0o700, exist_ok=True)
        fd = os.open(root / PINS / cache_integrity.process_tag(), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a") as f:
            f.write("".join(f"{s}\n" for s in stems))
    except OSError:
        pass        # a read-only cache: this process cannot evict there, the owner's processes see no pin


def _after_fork_in_child() -> None:
    """The child's own pin file, with what it inherited loaded (the parent's goes when the parent exits)."""
    by_root: dict[str, list[str]] = {}
    for root, stem in _pinned:
        by_root.setdefault(root, []).append(stem)
    for root, stems in by_root.items():
        _write_pins(Path(root), stems)


os.register_at_fork(after_in_child=_after_fork_in_child)


def pinned(root: Path) -> set[str]:
    """The stems live processes have loaded (pin files of processes gone are removed)."""
    stems = {stem for folder, stem in _pinned if folder == str(root)}
    for f in _children(root / PINS):
        if not cache_integrity.writer_alive(f.name, f, stale_after=PIN_STALE_S):
            try:
                f.unlink()
            except OSError:
                pass
            continue
        try:
            stems |= set(f.read_text().split())
        except OSError:
            pass
    return stems


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
    if not _is_dir(path):
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
    """Every entry (only names ascgen writes), least recently used first."""
    root = folder or config.cache_dir()
    if not _is_dir(root):
        return []
    groups: dict[tuple[str, str], list[Path]] = {}
    for item in _children(root):
        if item.name.startswith(".") or item.name in (TAG, COMPILER_MEMO) or not owned(item):
            continue
        if _is_dir(item) and item.name.startswith(WHOLE_FOLDERS):
            groups[(item.name, "")] = _files(item)
        elif _is_dir(item):
            for sub in _children(item):
                if not sub.name.startswith("."):
                    groups.setdefault((item.name, _stem(sub.name)), []).extend(_files(sub))
        elif not item.name.endswith(".lock"):     # a build lock is empty and goes with its entry
            groups.setdefault(("", _stem(item.name)), []).append(item)
    found = []
    for (group, stem), files in groups.items():
        if not group:
            lock = root / f"{stem}.lock"
            files += [lock] if lock.is_file() and not lock.is_symlink() else []
        stats = [st for st in map(_lstat, files) if st is not None]
        if stats:
            found.append(Entry(group, stem, tuple(files), sum(s.st_size for s in stats),
                               max(s.st_mtime for s in stats)))
    return sorted(found, key=lambda e: (e.last_used, e.name))


def in_progress(folder: Path | None = None) -> list[Path]:
    """Dot-named top-level items: builds in progress (or left by a killed process; cache_integrity.orphans
    finds those at any depth)."""
    root = folder or config.cache_dir()
    return sorted(p for p in _children(root)
                  if p.name.startswith(".") and p.name not in (PINS, cache_integrity.SWEEP_STAMP))


def total_size(items: list[Entry]) -> int:
    return sum(e.size for e in items)


def _remove(entry: Entry, root: Path) -> None:
    # The manifest first: a reader that no longer sees it rebuilds instead of loading a half-removed entry.
    for path in sorted(entry.files, key=lambda p: p.suffix != ".json"):
        _unlink_inside(path, root)
    if entry.folder:
        for parent in {p.parent for p in entry.files}:
            _remove_empty(parent, stop=root / entry.folder)


def _unlink_inside(path: Path, root: Path) -> None:
    """Remove one file or link (never what a link points to), only if it lies inside `root`."""
    if root not in path.parents or ".." in path.relative_to(root).parts:
        return
    try:
        path.unlink()
    except OSError:
        pass


def _remove_empty(folder: Path, stop: Path) -> None:
    while folder != stop and stop in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def evict(limit: int | None = None, keep: Path | None = None) -> list[Entry]:
    """Remove least recently used entries until the cache fits `limit` (default: the configured cap).
    Never removed: the entry holding `keep` (the one just built) and entries a live process has loaded
    (`pin`). Returns what was removed."""
    limit = config.cache_limit() if limit is None else limit
    if limit <= 0:
        return []
    root = config.cache_dir()
    items = entries(root)
    size = total_size(items)
    removed: list[Entry] = []
    in_use = None
    for entry in items:
        if size <= limit:
            break
        if keep is not None and keep in entry.files:
            continue
        in_use = pinned(root) if in_use is None else in_use
        if not entry.folder and entry.stem in in_use:
            continue
        _remove(entry, root)
        size -= entry.size
        removed.append(entry)
    return removed


def clear() -> tuple[int, int]:
    """Remove every entry ascgen wrote (and builds whose writer is gone) and nothing else: other files in the
    folder, the tag, pinned modules of live processes, builds in progress stay. Returns (entries removed,
    bytes freed)."""
    root = config.cache_dir()
    if not _is_dir(root) or not (root / TAG).is_file():
        return 0, 0
    in_use = pinned(root)
    items = [e for e in entries(root) if e.folder or e.stem not in in_use]
    for entry in items:                               # files and links one by one: a build in progress stays
        _remove(entry, root)
    for item in _children(root):                      # folders emptied above
        if _is_dir(item) and owned(item) and not item.name.startswith("."):
            _remove_empty_tree(item)
    cache_integrity.clean_stale(root, everywhere=True)
    return len(items), total_size(items)


def _remove_empty_tree(folder: Path) -> None:
    for sub in _children(folder):
        if _is_dir(sub):
            _remove_empty_tree(sub)
    try:
        folder.rmdir()
    except OSError:
        pass


def human(n: float) -> str:
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
