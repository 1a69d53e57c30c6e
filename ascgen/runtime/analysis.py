"""Read a kernel source the way the Ascend C toolchain does before compiling it, and cache the result.

`g++ -E -fdirectives-only` resolves `#if` branches (with the user's -D defines, e.g. SCENARIO_NUM) and
pulls in the user's own headers, but leaves macros unexpanded, so `signature.analyse` still sees
`__global__`, `__mix__(1, 2)` and `KERNEL_TASK_TYPE_DEFAULT(...)` as written. Only text from the user's
files is kept (not ascgen's emulated headers, not system headers). The result is cached on disk by the
content of the source and of every user header it read, so a cached `load()` does not start a compiler.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

from ascgen import config, resources
from ascgen.errors import CompileError
from ascgen.runtime import build
from ascgen.runtime.build import deps, wrapper
from ascgen.source import signature
from ascgen.source.signature import KernelEntry, Param, SourceInfo, analyse

_LINE_MARKER = re.compile(r'^# (\d+) "((?:\\.|[^"\\])*)"((?: \d)*)\s*$')


@functools.lru_cache(maxsize=1)
def _code_digest() -> str:
    """The analysis code itself (this module and the source reader), the version of a cached result: an
    ascgen whose analysis changed never reads a result the old code cached."""
    h = hashlib.sha256()
    for module in (__file__, signature.__file__):
        h.update(Path(module).read_bytes())
    return h.hexdigest()[:16]


def _cache_key(text: str, filename: str, include_dirs, defines: dict, library_dirs=()) -> Path:
    """The analysis's key stem in the cache; the headers it read join it at lookup (`_result_path`)."""
    key = hashlib.sha256(json.dumps({
        "code": _code_digest(), "text": hashlib.sha256(text.encode()).hexdigest(),
        "file": filename,
        "include_dirs": [str(d) for d in include_dirs], "library_dirs": [str(d) for d in library_dirs],
        "defines": sorted((str(k), str(v)) for k, v in defines.items()),
    }, sort_keys=True).encode()).hexdigest()[:24]
    return config.cache_dir() / "analysis" / key


def _result_path(key: Path, files: list[str]) -> Path:
    """The result for the user's headers as they are now (build/deps.py: an edited header anywhere is
    another result; only the headers beside the source were digested before, and a stale analysis kept
    an edited header's kernels and task-sync calls)."""
    return key.parent / f"{key.name}.{deps.digest(files)[:16]}.json"


def _user_part(preprocessed: str, runtime_root: Path, library_dirs=()) -> tuple[str, list[tuple[int, str, int]]]:
    """The lines that come from user files, and a map (offset -> file, line) for messages. Not user files:
    system headers, ascgen's runtime, and the backend's library folders (a library header the stand-ins do
    not cover, such as kernel_operator_intf.h, would otherwise bring every API's declaration along)."""
    keep, index = [], []
    offset, cur_file, cur_line, user = 0, "<source>", 1, True
    library = tuple(os.path.join(os.path.realpath(d), "") for d in [runtime_root, *library_dirs])
    for raw in preprocessed.split("\n"):
        m = _LINE_MARKER.match(raw)
        if m:
            cur_line, cur_file = int(m.group(1)), m.group(2).encode().decode("unicode_escape")
            flags = m.group(3).split()
            user = "3" not in flags and not cur_file.startswith("<") and \
                not os.path.abspath(cur_file).startswith(library)
            continue
        if user:
            index.append((offset, cur_file, cur_line))
            keep.append(raw)
            offset += len(raw) + 1
        cur_line += 1
    return "\n".join(keep), index


def _file_of(index):
    import bisect
    offsets = [o for o, _, _ in index]

    def where(pos: int) -> tuple[str, int]:
        k = bisect.bisect_right(offsets, pos) - 1
        if k < 0:
            return ("<source>", 1)
        return index[k][1], index[k][2]
    return where


def preprocess(text: str, filename: str, include_dirs, defines: dict) -> str:
    """`g++ -E -fdirectives-only` of `text` as if it were the file `filename`."""
    compiler = build.find_preprocessor()
    flags = ["-E", "-fdirectives-only", "-x", "c++", "-std=c++17"]
    flags += [f"-I{Path(d).resolve()}" for d in include_dirs]
    flags += [f"-D{k}" if v is None else f"-D{k}={v}" for k, v in defines.items()]
    with tempfile.TemporaryDirectory(prefix="ascgen-pp-") as tmp:
        src = Path(tmp) / "source.cpp"
        src.write_text(f'{wrapper.line_directive(filename)}\n{text}')
        if os.path.isabs(filename):
            flags.append(f"-iquote{Path(filename).parent}")
        # errors="replace": the text of the headers is kept, and not every one is UTF-8 (the operator
        # repositories' and the library's comments include GBK)
        proc = subprocess.run([compiler, *flags, str(src)], capture_output=True, text=True, errors="replace",
                              timeout=300)
    if proc.returncode != 0:
        start, lines = build.error_window([ln for ln in proc.stderr.splitlines() if ln.strip()])
        skipped = [f"  ... {start} lines before the first error not shown"] if start else []
        raise CompileError(f"preprocessing {filename} failed:\n" + "\n".join([*skipped, *("  " + ln for ln in lines)]))
    return proc.stdout


def _to_json(info: SourceInfo) -> dict:
    return {"uses_wait": info.uses_wait, "uses_set": info.uses_set, "uses_sync_all": info.uses_sync_all, "kernels": [
        {**k.__dict__, "params": [p.__dict__ for p in k.params]} for k in info.kernels]}


def _from_json(data: dict) -> SourceInfo:
    kernels = tuple(KernelEntry(**{**k, "params": tuple(Param(**p) for p in k["params"]),
                              "gm_casts": tuple(tuple(c) for c in k.get("gm_casts", ()))}) for k in data["kernels"])
    return SourceInfo(kernels, data["uses_wait"], data["uses_set"], data["uses_sync_all"])


def analyse_source(text: str, filename: str, include_dirs=(), defines: dict | None = None,
                   library_dirs=()) -> SourceInfo:
    """Kernels and task-sync usage of a source, cached on disk. `library_dirs`: Backend.library_dirs()."""
    defines = dict(defines or {})
    include_dirs = [*resources.include_dirs(), *include_dirs, resources.common_dir()]
    key = _cache_key(text, filename, include_dirs, defines, library_dirs)
    files = deps.read(key.with_suffix(deps.SUFFIX))
    if files is not None:
        try:
            return _from_json(json.loads(_result_path(key, files).read_text()))
        except (OSError, ValueError, KeyError, TypeError):
            pass
    user_text, index = _user_part(preprocess(text, filename, include_dirs, defines), resources.runtime_dir(),
                                  library_dirs)
    info = analyse(user_text, _file_of(index))
    files = sorted({os.path.abspath(f) for _, f, _ in index if os.path.isfile(f)})
    try:
        key.parent.mkdir(parents=True, exist_ok=True)
        build.write_atomic(_result_path(key, files), json.dumps(_to_json(info)).encode())
        build.write_atomic(key.with_suffix(deps.SUFFIX), deps.as_text(files).encode())
    except OSError:
        pass                        # a read-only cache only costs the analysis next time
    return info

