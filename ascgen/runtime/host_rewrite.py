"""Make a hand-written host program compilable by g++: rewrite `k<<<a, b, c>>>(args)` and, in the
program's main source, give the renamed `main` the `return 0;` the language implies at its end.

    add_custom<blockLength><<<numBlocks, 0, stream>>>(x, y, z);
 -> ::ascgen::host::launch(&add_custom<blockLength>, "add_custom<blockLength>", numBlocks, 0, stream)(x, y, z);

    aclFinalize();                  aclFinalize();
}                               ->  return 0; }          (see ascgen/source/program.py for why)

The replacement stays on the same lines, and the copy starts with `#line 1 "<user file>"`, so compiler
diagnostics, __builtin_FILE/LINE and every report keep pointing at the user's file and lines.
Comments and string literals are never rewritten.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from ascgen import config
from ascgen.runtime.build.cache_integrity import writable_root
from ascgen.errors import SpecError
from ascgen.source.launches import find_launches
from ascgen.source.program import with_main_return

HELPER_INCLUDE = '#include "ascgen/host_launch.h"'

def rewrite(text: str, filename: str, program: bool = False) -> tuple[str, int]:
    """(the compilable copy, number of launches rewritten). `program`: the source defines the program's
    `main`, which the wrapper renames."""
    pieces, last = [], 0
    launches = find_launches(text)
    for launch in launches:
        if not launch.readable:
            raise SpecError(f"{filename}:{launch.line}: cannot read this <<<...>>> kernel launch. "
                            "Hint: write it as `kernel<<<blocks, l2ctrl, stream>>>(args...)`.")
        callee = text[launch.callee_start:launch.open].strip()
        config = text[launch.open + 3:launch.close]
        if not config.strip():
            raise SpecError(f"{filename}:{launch.line}: the launch of {callee} gives no block count inside <<<>>>.")
        name = " ".join(callee.split()).replace('"', "")
        pieces.append(text[last:launch.callee_start])
        pieces.append(f'::ascgen::host::launch(&{callee}, "{name}", {config})')
        last = launch.end
    pieces.append(text[last:])
    body = "".join(pieces)
    if program:
        body = with_main_return(body)
    escaped = filename.replace("\\", "\\\\").replace('"', '\\"')
    return f'{HELPER_INCLUDE}\n#line 1 "{escaped}"\n' + body, len(launches)


def compilable_copy(text: str, name: str, program: bool = False) -> Path:
    """The rewritten copy of a source with `<<<>>>` launches (or of the program's main source, `program`),
    in <cache>/host/<hash>/, written atomically. `name` is the user's path (or name) the #line directive
    gives back to diagnostics."""
    copy, _ = rewrite(text, name, program)
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
