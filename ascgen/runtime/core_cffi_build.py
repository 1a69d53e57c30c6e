"""Generate ascgen/runtime/_autogen/core_cffi.py, cffi's out-of-line ABI module for runtime/core/core_api.h.

Parsing the header with cffi's cdef costs ~100 ms per process (pycparser); the generated module holds
the parsed types and imports in about a millisecond. It is committed; tests/core/test_cffi_glue.py
regenerates it and fails on any difference, and core.py falls back to parsing the header when the
header's hash does not match (a stale module never silently describes the wrong structs).

    python -m ascgen.runtime.core_cffi_build      # rewrite the committed module
"""
from __future__ import annotations

import hashlib
import sys
import tempfile
from pathlib import Path

from ascgen import resources

MODULE = Path(__file__).parent / "_autogen" / "core_cffi.py"


def header_text() -> str:
    return (resources.core_dir() / "core_api.h").read_text()


def cdef_text(header: str) -> str:
    """The header without preprocessor lines (cdef does not take them)."""
    return "\n".join(line for line in header.splitlines() if not line.lstrip().startswith("#"))


def header_hash(header: str) -> str:
    return hashlib.sha256(header.encode()).hexdigest()


def generate(target: Path = MODULE) -> str:
    """Write the module to `target` and return its text."""
    import cffi   # only here: importing this module must stay cheap for core.py
    header = header_text()
    ffibuilder = cffi.FFI()
    ffibuilder.cdef(cdef_text(header))
    ffibuilder.set_source("ascgen.runtime._autogen.core_cffi", None)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "glue.py"
        ffibuilder.emit_python_code(str(out))
        text = out.read_text()
    text += f"\n# sha256 of runtime/core/core_api.h this module was generated from\nHEADER_SHA256 = {header_hash(header)!r}\n"
    target.write_text(text)
    return text


if __name__ == "__main__":
    generate()
    print(f"wrote {MODULE}", file=sys.stderr)
