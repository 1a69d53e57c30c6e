"""What a build read: every header a compile included, so an edit of any of them rebuilds the module.

The cache key (build._key_parts) covers the sources, the flags, the runtime's headers and the compiler;
which other headers a source includes only the compiler knows. Each compile writes them (`-MD`), the list is
kept beside the key (`<name>-<key>.deps`, one path per line), and a lookup hashes those files as they are
now: the module's name joins the key and that hash (`module_name`). So a header edited anywhere (beside the
kernel, in a subfolder, in ../common, in a library tree) names another module, which a process then loads
fresh: dlopen of a name it has loaded already would hand back the old code.

What it does not see: a header created later in an earlier include folder, which would shadow the one the
compile found (the compile's own list cannot name a file that did not exist); `ascgen cache clear` or an edit
of the source rebuilds then. Files inside the cache folder (precompiled headers, generated wrappers) are
left out: their own keys cover them.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ascgen.runtime.build import relocate

SUFFIX = ".deps"
_MISSING = "missing"
_file_digests: dict[tuple, str] = {}    # (path, inode, size, mtime) -> sha256, so a process hashes a file once


def compile_flags(dep_file: Path) -> list[str]:
    """The flags that make one compile write its dependency list to `dep_file`."""
    return ["-MD", "-MF", str(dep_file)]


def parse(text: str) -> list[str]:
    """The prerequisites of a make rule as gcc's -MD writes it (continuation lines, `\\ ` in names)."""
    joined = text.replace("\\\n", " ")
    _, _, rest = joined.partition(": ")
    names, cur, i = [], "", 0
    while i < len(rest):
        c = rest[i]
        if c == "\\" and i + 1 < len(rest) and rest[i + 1] in " #":
            cur += rest[i + 1]
            i += 2
            continue
        if c == "$" and rest[i + 1:i + 2] == "$":
            cur += "$"
            i += 2
            continue
        if c.isspace():
            if cur:
                names.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    if cur:
        names.append(cur)
    return names


def recorded(dep_files: list[Path], leave_out: Path, root: Path | None = None) -> list[str]:
    """The absolute paths the compiles read (their .d files), minus what lies under `leave_out` (the cache).
    A relocatable build's files under `root` are kept as the compiler named them with the root as
    relocate.TOKEN (`TOKEN/../common/w.h`, not normalised: under another root that is another file)."""
    out: dict[str, None] = {}
    skip = os.path.abspath(leave_out) + os.sep
    for d in dep_files:
        try:
            names = parse(d.read_text(errors="replace"))
        except OSError:
            continue
        for name in names:
            named = relocate.tokenised(name, root)
            path = named if named != name else os.path.abspath(name)
            if not path.startswith(skip):
                out[path] = None
    return sorted(out)


def as_text(files: list[str]) -> str:
    """The list as the text of a `.deps` file."""
    return "".join(f"{f}\n" for f in files)


def read(path: Path) -> list[str] | None:
    """The recorded list, or None when there is none (never built, or evicted)."""
    try:
        return [line for line in path.read_text().splitlines() if line]
    except (OSError, UnicodeDecodeError):
        return None


def digest(files: list[str], root: Path | None = None) -> str:
    """sha256 over the files' names as recorded and their current contents, a TOKEN name read under `root`
    (a missing file counts as such)."""
    h = hashlib.sha256()
    for f in files:
        h.update(f.encode() + b"\0" + _file_digest(relocate.resolved(f, root)).encode() + b"\n")
    return h.hexdigest()


def module_name(base: str, files: list[str], root: Path | None = None) -> str:
    """`<base>.<16 hex>.so`: the module of key stem `base` built with these dependencies as they are now. One
    stem per key, so the cache lists, pins and evicts a key's builds, its lock and its list as one entry."""
    return artifact_name(base, files, ".so", root)


def artifact_name(base: str, files: list[str], suffix: str, root: Path | None = None) -> str:
    """`<base>.<16 hex><suffix>`: what key stem `base` builds with these dependencies as they are now."""
    return f"{base}.{digest(files, root)[:16]}{suffix}"


def _file_digest(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return _MISSING
    stamp = (path, st.st_ino, st.st_size, st.st_mtime_ns)
    if stamp not in _file_digests:
        try:
            with open(path, "rb") as f:
                _file_digests[stamp] = hashlib.sha256(f.read()).hexdigest()
        except OSError:
            return _MISSING
    return _file_digests[stamp]
