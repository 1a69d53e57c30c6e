"""Precompiled headers for kernel modules: the headers every wrapper includes first, compiled once per flag
set into the cache, then given to each compile as `-include <header>` (GCC reads <header>.gch instead).

A third of a builtin module's compile is parsing the emulated Ascend C headers (docs/testing.md); the
wrapper includes them before anything of the user's, with only command-line macros defined, so the
precompiled copy is exactly what the text would give. The key holds every flag, the compiler's identity,
the host CPU (for -march=native) and the runtime headers' contents, so an edited header or another flag
builds a new one. `-Winvalid-pch` warns, and GCC falls back to the headers, if a use does not match.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Sequence

from ascgen import config, console
from ascgen.errors import CompileError
from ascgen.runtime import build
from ascgen.runtime.build import cache as cache_folder

HEADER = "ascgen_pch.h"


def include_flags(name: str, includes: Sequence[str], flags: Sequence[str]) -> list[str]:
    """["-include", <header>, "-Winvalid-pch"] for a precompiled header of `includes` (#include lines)
    built with `flags` (a module's compile flags; -shared is dropped), building it first if needed."""
    if not config.builtin_pch():
        return []
    flags = [f for f in flags if f != "-shared"]
    compiler = build.find_compiler()
    cpu = build.host_cpu_id() if "-march=native" in flags else ""
    key = hashlib.sha256("\0".join([*includes, *flags, build.compiler_identity(compiler), cpu,
                                    build.runtime_headers_digest()]).encode()).hexdigest()[:24]
    folder = config.cache_dir() / f"pch-{name}-{key}"
    header, gch = folder / HEADER, folder / (HEADER + ".gch")
    if gch.is_file():
        cache_folder.touch(gch)         # a use: least-recently-used eviction keeps it
        return ["-include", str(header), "-Winvalid-pch"]
    folder.mkdir(parents=True, exist_ok=True)
    with build._lock(folder / "build.lock"):       # concurrent builders wait for one header, not build several
        if not gch.is_file():
            _compile(compiler, flags, includes, header, gch)
    return ["-include", str(header), "-Winvalid-pch"]


def _compile(compiler: str, flags: list[str], includes: Sequence[str], header: Path, gch: Path) -> None:
    header.write_text("// ascgen: the headers every module wrapper includes first, precompiled\n"
                      + "".join(f"{line}\n" for line in includes))
    tmp = header.parent / f".{HEADER}.{os.getpid()}.gch"
    with console.long_step("precompiling the emulated Ascend C headers", expect="about 10 s, once per flag set"):
        proc = build.run_tool([compiler, *flags, "-x", "c++-header", str(header), "-o", str(tmp)])
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise CompileError("precompiling the emulated headers failed:\n" + "\n".join(proc.stderr.splitlines()[:30]))
    os.replace(tmp, gch)
