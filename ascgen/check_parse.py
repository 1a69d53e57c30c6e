"""Parse one Ascend C source with libclang, degrading gracefully when headers are missing.

Kernels usually include CANN headers we do not ship. A missing include is a fatal error in clang, and
after a fatal error clang stops instantiating templates and reporting anything, so includes that cannot
be resolved are blanked out (same length, so lines and columns do not move) and reported as skipped.
Host-side `kernel<<<grid, ...>>>(args)` launches are blanked the same way: they are not C++.
The edited texts reach clang as unsaved files; nothing on disk changes.
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from . import resources
from .errors import AscgenError

PRELUDE_NAME = "/__ascgen_check__/prelude.h"
# Qualifiers every Ascend C header defines; defined here too (first, guarded) so a source whose headers
# are all missing still parses into functions. The library's own definitions, if any, win.
PRELUDE = "".join(f"#ifndef {name}\n#define {name}\n#endif\n"
                  for name in ("__aicore__", "__global__", "__gm__", "__vector__", "__cube__"))

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.MULTILINE)
_LAUNCH = re.compile(r"<<<[^;{}]*?>>>")


@dataclass(frozen=True)
class Skipped:
    """Something `check` could not analyse; reported in the "skipped" list, never silently dropped."""
    file: str
    line: int
    what: str
    reason: str

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "what": self.what, "reason": self.reason}

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: skipped {self.what}: {self.reason}"


@dataclass
class ParsedSource:
    path: str                      # the main file as given to clang
    tu: object                     # clang.cindex.TranslationUnit
    index: object                  # kept alive with the TU
    user_files: set = field(default_factory=set)   # main file and the user's own headers (not library)
    skipped: list = field(default_factory=list)


def _blank(text: str, start: int, end: int) -> str:
    """Replace text[start:end] with spaces, keeping newlines, so positions after it do not move."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


@functools.lru_cache(maxsize=1)
def system_include_dirs() -> tuple[str, ...]:
    """The C++ compiler's own include directories (libclang uses the same GCC installation)."""
    compiler = shutil.which("g++") or shutil.which("clang++")
    if not compiler:
        return ()
    try:
        out = subprocess.run([compiler, "-x", "c++", "-E", "-v", os.devnull], capture_output=True,
                             text=True, timeout=20).stderr
    except (OSError, subprocess.SubprocessError):
        return ()
    dirs, inside = [], False
    for line in out.splitlines():
        if line.startswith("#include <...> search starts here"):
            inside = True
        elif line.startswith("End of search list"):
            break
        elif inside and line.startswith(" "):
            dirs.append(os.path.realpath(line.strip()))
    return tuple(dirs)


class _Preparer:
    """Walks the user's files from the main source, resolving includes the way the compiler would."""

    def __init__(self, include_dirs: list[str]):
        self.include_dirs = include_dirs
        self.library_dirs = [os.path.realpath(str(resources.include_dir())), *system_include_dirs()]
        self.texts: dict[str, str] = {}        # file -> edited text (only files that changed)
        self.user_files: set[str] = set()
        self.skipped: list[Skipped] = []

    def is_library(self, path: str) -> bool:
        real = os.path.realpath(path)
        return any(real.startswith(d + os.sep) for d in self.library_dirs)

    def resolve(self, name: str, quoted: bool, from_file: str) -> str | None:
        dirs = ([os.path.dirname(from_file) or "."] if quoted else []) + self.include_dirs + self.library_dirs
        for d in dirs:
            candidate = os.path.join(d, name)
            if os.path.isfile(candidate):
                return candidate
        return None

    def visit(self, path: str) -> None:
        key = os.path.realpath(path)
        if key in self.user_files:
            return
        self.user_files.add(key)
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise AscgenError(f"cannot read {path}: {exc.strerror}") from exc
        original = text
        for match in reversed(list(_INCLUDE.finditer(text))):
            name = match.group(2).strip()
            found = self.resolve(name, match.group(1) == '"', path)
            if found is None:
                line = text.count("\n", 0, match.start()) + 1
                self.skipped.append(Skipped(path, line, f"#include {match.group(1)}{name}"
                                            f"{'>' if match.group(1) == '<' else chr(34)}",
                                            "header not found; its declarations are unknown, the rest is analysed"))
                text = _blank(text, match.start(), match.end())
            elif not self.is_library(found):
                self.visit(found)
        for match in reversed(list(_LAUNCH.finditer(text))):
            text = _blank(text, match.start(), match.end())
        if text != original:
            self.texts[path] = text


def clang_args(include_dirs, defines, extra_defines=()) -> list[str]:
    args = ["-x", "c++", "-std=c++17", "-w", "-ferror-limit=0", "-include", PRELUDE_NAME,
            "-I", str(resources.include_dir())]
    for d in include_dirs:
        args += ["-I", str(d)]
    for d in (*extra_defines, *defines):
        args.append(f"-D{d}")
    return args


def parse(path: str, include_dirs=(), defines=(), extra_defines=()) -> ParsedSource:
    """Parse `path` for analysis. Raises AscgenError when the file cannot be read or parsed at all."""
    from clang import cindex  # imported here: `ascgen --help` must not need libclang

    if not os.path.isfile(path):
        raise AscgenError(f"{path}: no such file")
    prep = _Preparer([str(d) for d in include_dirs])
    prep.visit(path)
    unsaved = [(PRELUDE_NAME, PRELUDE), *prep.texts.items()]
    index = cindex.Index.create()
    try:
        tu = index.parse(path, args=clang_args(include_dirs, defines, extra_defines), unsaved_files=unsaved)
    except cindex.TranslationUnitLoadError as exc:
        raise AscgenError(f"{path}: libclang could not parse the file ({exc})") from exc
    parsed = ParsedSource(path, tu, index, prep.user_files, prep.skipped)
    _summarise_errors(parsed, cindex)
    return parsed


def _summarise_errors(parsed: ParsedSource, cindex) -> None:
    """One skipped entry per user file that had parse errors: what parsed was analysed, the rest was not."""
    per_file: dict[str, list] = {}
    for diag in parsed.tu.diagnostics:
        if diag.severity < cindex.Diagnostic.Error or diag.location.file is None:
            continue
        name = diag.location.file.name
        if os.path.realpath(name) in parsed.user_files:
            per_file.setdefault(name, []).append(diag)
    for name, diags in per_file.items():
        first = diags[0]
        parsed.skipped.append(Skipped(
            name, first.location.line, f"{len(diags)} unparsed construct(s)",
            f"clang: {first.spelling} (declarations from missing headers are unknown; "
            "statements clang could not parse are not analysed)"))
