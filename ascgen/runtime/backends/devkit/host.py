"""The host side of the advanced API for the devkit backend: the library's own tiling sources, built into
one static library per product and flag set in the cache, over ascgen's stand-ins for the CANN host
pieces the asc-devkit tree does not ship (runtime/devkit/host: register/tilingdata_base.h, graph/ types,
fe:: platform information from the product table, securec, dlog).

A devkit host program that includes the tiling API (tiling/tiling_api.h, register/tilingdata_base.h or
the platform header) is linked against that library; other programs pay nothing. Besides the archive,
the folder holds two tiny shared libraries the library's code opens with dlopen by CANN's names:
libruntime.so (rtGetSocVersion: the emulated product's SoC) and libunified_dlog.so (its log sink). The
module finds them through its RUNPATH.
"""
from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ascgen import config, console, resources
from ascgen.errors import CompileError
from ascgen.runtime.build import cache as cache_folder
from ascgen.runtime import build
from ascgen.runtime.backends.devkit import toolchain as devkit
from ascgen.runtime.product_cxx import soc_table

# Any of these in a host program's text means it uses the tiling API.
MARKERS = ("tiling/tiling_api.h", "register/tilingdata_base.h", "platform/platform_ascendc.h")
# The library's sources, relative to the tree: every tiling source, the platform code and the host log.
SOURCE_GLOBS = ("impl/adv_api/tiling/**/*.cpp",)
SOURCE_FILES = ("impl/utils/tiling/platform/platform_ascendc.cpp", "impl/adv_api/detail/host_log.cpp")
# Folders the tiling sources include from (the tree's CMakeLists for tiling_api, in the CPU layout).
TREE_DIRS = ("include", "include/adv_api", "include/utils", "include/utils/tiling",
             "include/utils/tiling/platform", "impl", "impl/adv_api",
             "impl/utils", ".")
OWN_LIBRARY_SOURCES = ("tiling_def.cpp", "platform_infos.cpp")
SHARED_LIBS = {"libruntime.so": "cann_runtime.cpp", "libunified_dlog.so": "cann_dlog.cpp"}
ARCHIVE = "libascgen_devkit_host.a"
TABLE = "ascgen_soc_table.h"
HOST_FLAGS = ("-fvisibility=hidden", "-fno-gnu-unique")   # like the kernel module: one copy per core


@dataclass(frozen=True)
class HostLibrary:
    folder: Path

    @property
    def archive(self) -> Path:
        return self.folder / ARCHIVE

    def link_flags(self) -> tuple[list[str], list[str]]:
        """(extra_flags, link_libs) for build.compile_shared: the archive after the module's objects, and
        a RUNPATH so the library's dlopen of libruntime.so / libunified_dlog.so finds ascgen's."""
        return [f"-L{self.folder}", f"-Wl,-rpath,{self.folder}"], [f"-l:{ARCHIVE}"]


def host_dir() -> Path:
    return resources.runtime_dir() / "devkit" / "host"


def include_dir() -> Path:
    return host_dir() / "include"


def analysis_dir() -> Path:
    """Empty stand-ins of the tiling headers for the source analysis only (see devkit_module)."""
    return (host_dir() / "analysis").resolve()


def needs_host(texts) -> bool:
    return any(m in t for t in texts for m in MARKERS)


def advanced_sources(root: Path) -> list[Path]:
    """The advanced API's tiling sources (about 100): what a program's tiling calls, each built on demand."""
    return [p for g in SOURCE_GLOBS for p in sorted(root.glob(g))]


def library_sources(root: Path, advanced=None) -> list[Path]:
    """The library's sources: the platform code, the host log, ascgen's own, and the advanced API's tiling
    sources `advanced` (all of them when None)."""
    chosen = advanced_sources(root) if advanced is None else list(advanced)
    return [*chosen, *(root / f for f in SOURCE_FILES), *(host_dir() / "src" / f for f in OWN_LIBRARY_SOURCES)]


# ---- which advanced-API sources a program needs ---------------------------------------------------------

# A name a source defines: on a line that starts at column 0 and is no statement, the function before `(`,
# or for a method the class (`uint32_t GetSoftMaxMaxTmpSize(` -> GetSoftMaxMaxTmpSize, `int64_t
# MultiCoreMatmulTiling::GetTiling(` -> MultiCoreMatmulTiling): the tiling sources define their functions so.
# A method's own name (GetTiling, Init) is left out: many classes share it, and a program names the class.
# So are macros (REGISTER_TILING_DATA_CLASS(...) at column 0 in 13 sources): they define nothing by that name.
_DEFINED = re.compile(r"^(?!\s)(?!(?:if|for|while|switch|return|namespace|using|typedef|template|static_assert)\b)"
                      r"[^;{}\n#/]*?\b(\w+)(?:::~?(\w+))?\s*\(", re.M)
_WORD = re.compile(r"\b[A-Za-z_]\w*\b")
_MACRO = re.compile(r"[A-Z][A-Z0-9_]*")


@functools.lru_cache(maxsize=4)
def _index(root: Path) -> tuple[tuple[Path, frozenset, frozenset], ...]:
    """(source, the names it defines, the words it uses) of every advanced-API tiling source."""
    out = []
    for s in advanced_sources(root):
        text = s.read_text(errors="replace")
        defined = {m.group(1) for m in _DEFINED.finditer(text) if not _MACRO.fullmatch(m.group(1))}
        out.append((s, frozenset(defined), frozenset(_WORD.findall(text))))
    return tuple(out)


def needed_advanced(root: Path, texts) -> list[Path]:
    """The advanced-API tiling sources a program whose own files are `texts` may need: those defining a name
    its words name, then, until nothing joins, those defining a name a chosen source names. A word is not a
    call, so this takes more than the linker will (of the 98 sources: 4 for the library's matmul example,
    2 for softmax, 1 for geglu, none for a program of the platform API alone; every one before); what it
    misses leaves a symbol undefined, which the backend notices after the link and builds again with every
    source (backend.py, after_link)."""
    words = {w for text in texts for w in _WORD.findall(text)}
    chosen: list[Path] = []
    grew = True
    while grew:
        grew = False
        for source, defined, used in _index(root):
            if source not in chosen and not defined.isdisjoint(words):
                chosen.append(source)
                words |= used
                grew = True
    return sorted(chosen)


def compile_flags(root: Path, product, table_dir: Path) -> list[str]:
    incs = [include_dir(), table_dir, devkit.tiling_dir(root), *(root / d for d in TREE_DIRS)]
    # The host optimisation level after build_flags' own, so it wins (not under ASCGEN_DEBUG's -O0).
    level = () if config.debug() else (build.HOST_CODE_OPTIMISATION,)
    flags = [f for f in build.build_flags(incs, {"__NPU_ARCH__": product.npu_arch}, (*HOST_FLAGS, *level))
             if f != "-shared"]
    return flags


def _digest(*parts) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update((part if isinstance(part, bytes) else str(part).encode()) + b"\0")
    return h.hexdigest()[:16]


def _own_headers() -> bytes:
    return b"".join(f.name.encode() + f.read_bytes() for f in sorted(include_dir().rglob("*.h")))


def _stamp(f: Path) -> str:
    st = f.stat()
    return f"{f}:{st.st_mtime_ns}:{st.st_size}"


def library(root: Path, product, advanced=None) -> HostLibrary:
    """The host library for this tree and product with the advanced-API tiling sources `advanced` (all when
    None; `needed_advanced` picks a program's), built once into the cache. Objects are cached one by one
    (keyed by flags, source, ascgen's host headers) and shared by every selection, so editing ascgen's own host
    sources recompiles only those; a warm call costs a stat of the sources and a hash of ascgen's host files."""
    compiler = build.find_compiler()
    base = config.cache_dir()
    base.mkdir(parents=True, exist_ok=True)
    table = soc_table(product)
    table_dir = base / f"devkit-host-table-{_digest(table)}"
    if not (table_dir / TABLE).is_file():
        table_dir.mkdir(parents=True, exist_ok=True)
        build.write_atomic(table_dir / TABLE, table.encode())
    flags = compile_flags(root, product, table_dir)
    headers = _digest(_own_headers(), devkit._tree_stamp(root), build.compiler_identity(compiler), *flags)
    own = [host_dir() / "src" / f for f in (*OWN_LIBRARY_SOURCES, *SHARED_LIBS.values())]
    sources = library_sources(root, advanced)
    key = _digest(headers, *(_stamp(s) for s in sources if s not in own), *(f.read_bytes() for f in own))
    folder = base / f"devkit-host-{product.npu_arch}-{key}"
    lib = HostLibrary(folder)
    if _complete(folder):
        for name in (ARCHIVE, *SHARED_LIBS):     # a use: LRU eviction keeps what a link is about to read
            cache_folder.touch(folder / name)
        return lib
    with build._lock(base / f"{folder.name}.lock"):
        if not _complete(folder):
            _build(product, compiler, flags, headers, folder, sources)
    return lib


def _complete(folder: Path) -> bool:
    return all((folder / n).is_file() for n in (ARCHIVE, *SHARED_LIBS))


def _build(product, compiler: str, flags: list[str], headers: str, folder: Path, sources: list[Path]) -> None:
    objects_dir = folder.parent / "devkit-host-objects"
    objects_dir.mkdir(exist_ok=True)
    own = str(host_dir())
    objects = [objects_dir / f"{s.stem}-{_digest(headers, s.read_bytes() if str(s).startswith(own) else _stamp(s))}.o"
               for s in sources]
    jobs: list[tuple[Path, list[str], Path | None]] = [
        (s, [compiler, *flags, "-c", "-x", "c++", str(s), "-o", str(o)], o) for s, o in zip(sources, objects)
        if not o.is_file()]
    work = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}-"))
    shared: list[tuple[Path, list[str], Path | None]] = [(host_dir() / "src" / src, [compiler, *flags, "-shared", "-x", "c++", str(host_dir() / "src" / src),
                                          "-o", str(work / name)], None) for name, src in SHARED_LIBS.items()]
    try:
        with console.long_step(f"compiling the asc-devkit tiling library for {product.id}", total=len(jobs + shared),
                               expect=f"{len(jobs + shared)} sources, once per product") as step:
            def run_one(job):
                out = _run(job)
                step.advance()          # the count moves as sources finish
                return out
            with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
                results = list(pool.map(run_one, jobs + shared))
        failed = [(job[0], out) for job, out in zip(jobs + shared, results) if out is not None]
        if failed:
            src, out = failed[0]
            raise CompileError(f"building the devkit host library: {len(failed)} of {len(jobs) + len(shared)} "
                               f"sources failed to compile; the first, {src}:\n" +
                               "\n".join(out.splitlines()[:build.DIAGNOSTIC_LINES]))
        ar = subprocess.run(["ar", "rcs", str(work / ARCHIVE), *map(str, objects)], capture_output=True, text=True)
        if ar.returncode != 0:
            raise CompileError(f"archiving the devkit host library failed: {ar.stderr.strip()}")
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(work, folder)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _run(job) -> str | None:
    """Compile one source (into a temporary name, then renamed: concurrent builds share objects); None
    on success, else the compiler's output."""
    _, cmd, obj = job
    out = Path(cmd[-1])
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp") if obj is not None else out
    try:
        proc = build.run_tool([*cmd[:-1], str(tmp)])
    except CompileError as exc:          # a timeout, or a compiler that cannot start
        return str(exc)
    if proc.returncode != 0:
        return proc.stderr or proc.stdout
    if obj is not None:
        os.replace(tmp, obj)
    return None
