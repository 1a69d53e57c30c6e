"""Parse one Ascend C source with libclang, degrading gracefully when headers are missing.

Kernels usually include CANN headers we do not ship. A missing include is a fatal error in clang, and
after a fatal error clang stops instantiating templates and reporting anything, so includes that cannot
be resolved are blanked out (same length, so lines and columns do not move) and reported as skipped.
Host-side `kernel<<<grid, ...>>>(args)` launches are blanked the same way: they are not C++.
The edited texts reach clang as unsaved files; nothing on disk changes.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascgen import config, resources
from ascgen.errors import AscgenError
from ascgen.source.launches import find_launches

PRELUDE_NAME = "/__ascgen_check__/prelude.h"
# Qualifiers every Ascend C header defines; defined here too (first, guarded) so a source whose headers
# are all missing still parses into functions. The library's own definitions, if any, win.
PRELUDE = "".join(f"#ifndef {name}\n#define {name}\n#endif\n"
                  for name in ("__aicore__", "__global__", "__gm__", "__vector__", "__cube__"))

# Standard headers host code in kernel sources usually includes: precompiled with the library, since
# parsing <iostream> or <random> again for every file would cost more than the whole analysis.
HOST_HEADERS = ("cstdint", "cstdlib", "cstring", "cmath", "cstdio", "iostream", "fstream", "string", "vector",
                "map", "unordered_map", "algorithm", "memory", "random", "utility", "chrono", "functional")

# The detailed preprocessing record is what makes clang keep the ranges #if skipped (tokens.py).
_OPTIONS = 0x01     # CXTranslationUnit_DetailedPreprocessingRecord
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.MULTILINE)


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
    tu: Any                        # clang.cindex.TranslationUnit (libclang ships no type stubs)
    index: object                  # kept alive with the TU
    user_files: set = field(default_factory=set)   # main file and the user's own headers (not library)
    skipped: list = field(default_factory=list)
    errors: list = field(default_factory=list)     # (file, offset, line, message) of clang errors
    texts: dict = field(default_factory=dict)      # file -> the edited text clang saw (blanked includes)
    fatal: tuple | None = None                     # (file, line, message) of a fatal clang error in them


@functools.lru_cache(maxsize=4096)
def _realpath(path: str) -> str:
    return os.path.realpath(path)


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


def _is_library_tree(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, "kernel_operator.h"))


class _Preparer:
    """Walks the user's files from the main source, resolving includes the way the compiler would."""

    def __init__(self, include_dirs: list[str]):
        self.include_dirs = include_dirs
        # Library code is decided by where a file is, never by its namespace (operators put their own
        # helpers in `namespace AscendC`): the emulated headers, the system headers, and any -I folder that
        # is an Ascend C library tree (it holds kernel_operator.h, e.g. a CANN include folder).
        self.library_dirs = [*(os.path.realpath(str(d)) for d in resources.include_dirs()),
                             os.path.realpath(str(resources.common_dir())), *system_include_dirs(),
                             *(os.path.realpath(d) for d in include_dirs if _is_library_tree(d))]
        self.texts: dict[str, str] = {}        # file -> edited text (only files that changed)
        self.user_files: set[str] = set()
        self.skipped: list[Skipped] = []

    def is_library(self, path: str) -> bool:
        real = _realpath(path)
        return any(real.startswith(d + os.sep) for d in self.library_dirs)

    def resolve(self, name: str, quoted: bool, from_file: str) -> str | None:
        dirs = ([os.path.dirname(from_file) or "."] if quoted else []) + self.include_dirs + self.library_dirs
        for d in dirs:
            candidate = os.path.join(d, name)
            if os.path.isfile(candidate):
                return candidate
        return None

    def visit(self, path: str) -> None:
        key = _realpath(path)
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
        for launch in reversed(find_launches(text)):     # host launches are not C++ libclang reads
            if launch.close >= 0:
                text = _blank(text, launch.open, launch.end)
        if text != original:
            self.texts[path] = text


def _builtin_include_dirs() -> list[str]:
    """The compiler's builtin headers (stddef.h, stdarg.h). The libclang wheel ships none, and a missing
    stddef.h is a fatal error that silently stops template instantiation, so borrow GCC's."""
    return [d for d in system_include_dirs() if "/gcc/" in d and d.endswith("/include")]


def clang_args(include_dirs, defines, extra_defines=()) -> list[str]:
    """Flags shared by the source parse and the precompiled library header (they must agree)."""
    args = ["-std=c++17", "-w", "-ferror-limit=0"]
    for d in _builtin_include_dirs():
        args += ["-isystem", d]
    for folder in resources.include_dirs():
        args += ["-I", str(folder)]
    for d in (*include_dirs, resources.common_dir()):
        args += ["-I", str(d)]
    for d in (*extra_defines, *defines):
        args.append(f"-D{d}")
    return args


def _library_fingerprint() -> str:
    h = hashlib.sha256()
    for root in (*resources.include_dirs(), resources.common_dir()):
        for path in sorted(root.rglob("*")):
            if path.is_file():
                h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def precompiled_library(args: list[str], cindex) -> str | None:
    """A precompiled kernel_operator.h (with the prelude) for these flags, built once and cached.

    Parsing the emulated library dominates the cost of a check (about 0.5 s of 0.6 s); with the PCH a
    source parses in tens of milliseconds. Keyed by the flags, the headers' content and libclang's
    identity; written to a temporary name and renamed, so concurrent checks never read half a file.
    Returns None (parse without it) when the library does not precompile cleanly.
    """
    if not (resources.include_dir() / "kernel_operator.h").is_file():
        return None
    key = hashlib.sha256("\0".join([*args, _library_fingerprint(), cindex.conf.lib._name, "v2", *HOST_HEADERS]).encode())
    directory = config.cache_dir() / "check"
    pch = directory / f"{key.hexdigest()[:24]}.pch"
    if pch.is_file():
        return str(pch)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        source = directory / f"{key.hexdigest()[:24]}.h"
        source.write_text(PRELUDE + '#include "kernel_operator.h"\n'
                          + "".join(f"#include <{h}>\n" for h in HOST_HEADERS))
        tu = cindex.Index.create().parse(str(source), args=["-x", "c++-header", *args])
        if any(d.severity >= cindex.Diagnostic.Error for d in tu.diagnostics):
            return None
        fd, tmp = tempfile.mkstemp(dir=directory, suffix=".pch.tmp")
        os.close(fd)
        tu.save(tmp)
        os.replace(tmp, pch)
        return str(pch)
    except (OSError, cindex.TranslationUnitLoadError, cindex.TranslationUnitSaveError):
        return None


def user_texts(path: str, include_dirs=()) -> dict[str, str]:
    """{file: text} of the user's files `path` includes (no clang: the include walk only), for cheap
    questions asked before parsing: the input's size, whether the code tests a core-side macro."""
    if not os.path.isfile(path):
        return {}
    prep = _Preparer([str(d) for d in include_dirs])
    prep.visit(path)
    out = {}
    for name in prep.user_files:
        try:
            out[name] = prep.texts.get(name) or Path(name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
    return out


def _encodable(path: str) -> bool:
    try:
        path.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


@contextlib.contextmanager
def clang_source(path: str, include_dirs=()):
    """(the name to hand libclang for `path`, the include folders to use), valid inside the `with`.

    libclang takes the source name on its command line, so a relative name starting with `-` would be
    read as an option: it gets the absolute name. It takes names as UTF-8 text, so a name that is not
    (bytes kept by Python as surrogates) is analysed from a copy with a safe name in a private
    temporary folder (mode 0700), its own folder added to the include path for its quoted includes.
    """
    if _encodable(path):
        yield (os.path.abspath(path) if path.startswith("-") else path), list(include_dirs)
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not _encodable(folder):
        raise AscgenError(f"{path!r}: the folder's name is not valid UTF-8, which libclang cannot open; "
                          "rename the folder or copy the source elsewhere")
    with tempfile.TemporaryDirectory(prefix="ascgen-check-") as private:
        suffix = Path(path).suffix
        copy = os.path.join(private, "source" + (suffix if _encodable(suffix) else ".cpp"))
        try:
            shutil.copyfile(path, copy)
        except OSError as exc:
            raise AscgenError(f"cannot read {path!r}: {exc.strerror}") from exc
        yield copy, [folder, *include_dirs]


def parse(path: str, include_dirs=(), defines=(), extra_defines=()) -> ParsedSource:
    """Parse `path` for analysis. Raises AscgenError when the file cannot be read or parsed at all."""
    try:
        from clang import cindex  # imported here: `ascgen --help` must not need libclang
    except ImportError as exc:
        raise AscgenError(f"ascgen check needs libclang (the PyPI wheel): pip install libclang ({exc})") from exc

    if os.path.isdir(path):
        raise AscgenError(f"{path}: a folder with no .cpp/.asc sources")
    if not os.path.isfile(path):
        raise AscgenError(f"{path}: no such file")
    prep = _Preparer([str(d) for d in include_dirs])
    prep.visit(path)
    unsaved = [(PRELUDE_NAME, PRELUDE), *prep.texts.items()]
    index = cindex.Index.create()
    args = clang_args(include_dirs, defines, extra_defines)
    # The user's -I folders do not change the library's declarations: one PCH serves them all.
    pch = precompiled_library(clang_args((), defines, extra_defines), cindex)
    tu = None
    if pch is not None:
        try:
            tu = index.parse(path, args=["-x", "c++", *args, "-include-pch", pch], unsaved_files=unsaved,
                             options=_OPTIONS)
            if any("precompiled header" in d.spelling or "PCH" in d.spelling for d in tu.diagnostics):
                tu = None       # stale or incompatible: parse the library from source instead
        except cindex.TranslationUnitLoadError:
            tu = None
    if tu is None:
        try:
            tu = index.parse(path, args=["-x", "c++", *args, "-include", PRELUDE_NAME], unsaved_files=unsaved,
                             options=_OPTIONS)
        except cindex.TranslationUnitLoadError as exc:
            raise AscgenError(f"{path}: libclang could not parse the file ({exc})") from exc
    parsed = ParsedSource(path, tu, index, prep.user_files, prep.skipped, texts=dict(prep.texts))
    _collect_errors(parsed, cindex)
    return parsed


def _collect_errors(parsed: ParsedSource, cindex) -> None:
    """Clang's errors in the user's files; check.py reports those inside analysed kernel code as skipped."""
    for diag in parsed.tu.diagnostics:
        if diag.severity < cindex.Diagnostic.Error or diag.location.file is None:
            continue
        name = diag.location.file.name
        if _realpath(name) in parsed.user_files:
            parsed.errors.append((name, diag.location.offset, diag.location.line, diag.spelling))
            # A missing header (one named by a macro, which the blanking cannot see) is fatal too, but
            # clang reads on after it: only the other fatal errors end the parse.
            if diag.severity >= cindex.Diagnostic.Fatal and parsed.fatal is None \
                    and "file not found" not in diag.spelling:
                parsed.fatal = (name, diag.location.line, diag.spelling)
