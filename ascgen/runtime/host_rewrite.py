"""Make a hand-written host program compilable by g++: rewrite `k<<<a, b, c>>>(args)` and nothing else.

    add_custom<blockLength><<<numBlocks, 0, stream>>>(x, y, z);
 -> ::ascgen::host::launch(&add_custom<blockLength>, "add_custom<blockLength>", numBlocks, 0, stream)(x, y, z);

The replacement stays on the same lines, and the copy starts with `#line 1 "<user file>"`, so compiler
diagnostics, __builtin_FILE/LINE and every report keep pointing at the user's file and lines.
Comments and string literals are never rewritten.
"""
from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

from ascgen import config
from ascgen.runtime.cache_integrity import writable_root
from ascgen.errors import SpecError
from ascgen.source.signature import strip_comments

HELPER_INCLUDE = '#include "ascgen/host_launch.h"'
_IDENT_END = re.compile(r"[A-Za-z_]\w*$")


def _callee_start(clean: str, end: int) -> int:
    """Start of the callee expression that ends at `end` (exclusive): `ns::name<T, 4>`."""
    i = end
    while i > 0 and clean[i - 1] in " \t\n":
        i -= 1
    if i > 0 and clean[i - 1] == ">":                    # template arguments: match '<' backwards
        depth = 0
        j = i - 1
        while j >= 0:
            if clean[j] == ">":
                depth += 1
            elif clean[j] == "<":
                depth -= 1
                if depth == 0:
                    break
            j -= 1
        i = j
        while i > 0 and clean[i - 1] in " \t":
            i -= 1
    while True:                                          # identifier, possibly qualified with ::
        m = _IDENT_END.search(clean, 0, i)
        if not m:
            return -1
        i = m.start()
        if clean[max(0, i - 2):i] == "::":
            i -= 2
            continue
        return i


def _config_end(clean: str, start: int) -> int:
    """Index of the `>>>` closing the launch configuration that starts at `start`."""
    depth = 0
    i = start
    while i < len(clean):
        if clean.startswith(">>>", i) and depth == 0:
            return i
        c = clean[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ";":
            break
        i += 1
    return -1


def rewrite(text: str, filename: str) -> tuple[str, int]:
    """(the compilable copy, number of launches rewritten)."""
    clean = strip_comments(text)
    pieces, last, count = [], 0, 0
    for m in re.finditer(r"<<<", clean):
        if m.start() < last:
            continue
        line = clean.count("\n", 0, m.start()) + 1
        start = _callee_start(clean, m.start())
        end = _config_end(clean, m.end())
        if start < 0 or end < 0:
            raise SpecError(f"{filename}:{line}: cannot read this <<<...>>> kernel launch. "
                            "Hint: write it as `kernel<<<blocks, l2ctrl, stream>>>(args...)`.")
        callee = text[start:m.start()].strip()
        config = text[m.end():end]
        if not config.strip():
            raise SpecError(f"{filename}:{line}: the launch of {callee} gives no block count inside <<<>>>.")
        name = " ".join(callee.split()).replace('"', "")
        pieces.append(text[last:start])
        pieces.append(f'::ascgen::host::launch(&{callee}, "{name}", {config})')
        last = end + 3
        count += 1
    pieces.append(text[last:])
    escaped = filename.replace("\\", "\\\\").replace('"', '\\"')
    return f'{HELPER_INCLUDE}\n#line 1 "{escaped}"\n' + "".join(pieces), count


def has_launches(text: str) -> bool:
    return "<<<" in strip_comments(text)


def compilable_copy(text: str, name: str) -> Path:
    """The rewritten copy of a source with `<<<>>>` launches, in <cache>/host/<hash>/, written atomically.
    `name` is the user's path (or name) the #line directive gives back to diagnostics."""
    copy, _ = rewrite(text, name)
    digest = hashlib.sha256(copy.encode()).hexdigest()[:24]
    target = config.cache_dir() / "host" / digest / (Path(name).stem + ".cpp")
    if not target.is_file():
        folder = writable_root(config.cache_dir()) / "host" / digest
        target = folder / target.name
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(copy)
        os.replace(tmp, target)
    return target
