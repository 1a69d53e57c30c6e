"""Compile C++ sources into a shared object, cached by content.

The cache key is one readable expression of named parts (see `_key_parts`): the source texts, every
header of the runtime (runtime/include and runtime/core), the flags, the compiler's path and `--version`,
and CACHE_VERSION. The other headers a build read are recorded beside the key and hashed on each lookup
(deps.py): a module is `<name>-<key>.<deps>.so` plus its `.json` (the manifest). Both are written to
temporary files in the cache directory and renamed into place, the manifest last: a reader that sees the
manifest sees a complete .so, so any number of processes (pytest-xdist workers, several machines on a
shared disk) may build the same entry at once. A lock file only avoids duplicate work; correctness never
depends on it.
"""
from __future__ import annotations

import ctypes
import fcntl
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence, Union

from ascgen import config, console, resources
from ascgen.errors import CompileError
from ascgen.runtime.build import cache as cache_folder
from ascgen.runtime.build import cache_integrity, deps, relocate
from ascgen.runtime.build import wrapper

CACHE_VERSION = 3   # 2: the headers a compile read are recorded beside the key (deps.py); 3: relocatable builds
BASE_FLAGS = ("-std=c++17", "-fPIC", "-shared", "-pthread")
RELEASE_FLAGS = ("-O2", "-g0")
DEBUG_FLAGS = ("-O0", "-g")
# Host tiling code (the asc-devkit advanced API's tiling, op_host sources) runs once per launch on a few
# numbers, so its speed is not the run's; -O1 compiles it in about 12% less CPU than -O2 (104 sources of the
# devkit host library: 62 s instead of 71 s, docs/testing.md). Both host builds use it.
HOST_CODE_OPTIMISATION = "-O1"
# Kernel modules (module.py) on x86-64: the cube's matmul kernel (runtime/include/ascgen/gemm.h) runs
# about 2x faster with AVX2 + FMA. -ffp-contract=off keeps every other float op rounding exactly as
# before: without it GCC fuses a * b + c in kernels and library ops once FMA exists (gemm.h fuses
# explicitly where that cannot change a result). A few percent of compile time (docs/library.md).
NATIVE_FLAGS = ("-march=native", "-ffp-contract=off")
HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".inc", ".inl")
DIAGNOSTIC_LINES = 30
COMPILE_TIMEOUT_S = 600


@dataclass(frozen=True)
class SourceText:
    """A source that is not a file on disk (a generated kernel): `path` is the name diagnostics use."""
    text: str
    path: str


Source = Union[str, os.PathLike, SourceText]

_compiler_ids: dict[str, str] = {}
_header_digests: dict[tuple, str] = {}


# ---- compiler discovery ---------------------------------------------------------------------------

def find_compiler() -> str:
    """The C++ compiler: ASCGEN_CXX / CXX if set, else g++, else clang++ (an absolute path)."""
    wanted = config.compiler()
    if wanted:
        found = shutil.which(wanted)
        if not found:
            raise CompileError(
                f"the C++ compiler {wanted!r} (from ASCGEN_CXX/CXX) was not found on PATH. "
                "Hint: set ASCGEN_CXX to the path of g++ or clang++, or unset it to use the default.")
        return found
    for candidate in ("g++", "clang++"):
        found = shutil.which(candidate)
        if found:
            return found
    raise CompileError(
        "no C++17 compiler found: ascgen needs g++ or clang++ on PATH to build kernels for the CPU emulator. "
        "Hint: install one (`apt-get install g++`) or set ASCGEN_CXX to its path.")


def find_preprocessor() -> str:
    """The compiler for `-E -fdirectives-only` (GCC's: #if resolved, includes pulled in, macros left as written,
    which ascgen's source analysis reads): the build compiler when it is GCC, else g++ from PATH. clang++ has
    no such mode, so a clang-only machine gets an error naming the missing tool, not clang's "unknown argument"."""
    compiler = find_compiler()
    if "clang" not in compiler_identity(compiler).lower():
        return compiler
    gcc = shutil.which("g++")
    if gcc:
        return gcc
    raise CompileError(
        f"ascgen reads kernel sources with GCC's `-E -fdirectives-only` (the #if branches resolved, macros left as "
        f"written), which {compiler} (clang) does not offer, and no g++ is on PATH. "
        "Hint: install g++ (`apt-get install g++`); clang++ can still build the kernels (ASCGEN_CXX=clang++).")


def compiler_identity(compiler: str) -> str:
    """`<path> | <first line of --version>` (part of every cache key). Memoised per process, and on disk
    by the compiler binary's (path, size, mtime), so a fresh process does not pay for a subprocess."""
    if compiler in _compiler_ids:
        return _compiler_ids[compiler]
    real = os.path.realpath(compiler)
    st = os.stat(real)
    stamp = f"{real}|{st.st_size}|{st.st_mtime_ns}"
    memo = config.cache_dir() / cache_folder.COMPILER_MEMO
    try:
        known = json.loads(memo.read_text())
    except (OSError, ValueError):
        known = {}
    if known.get(stamp, {}).get("path") == compiler:
        _compiler_ids[compiler] = known[stamp]["id"]
        return _compiler_ids[compiler]
    try:
        out = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        raise CompileError(f"cannot run the C++ compiler {compiler}: {exc}. Hint: set ASCGEN_CXX.") from exc
    first = (out.stdout or out.stderr).strip().splitlines()
    _compiler_ids[compiler] = f"{compiler} | {first[0] if first else 'unknown version'}"
    known[stamp] = {"path": compiler, "id": _compiler_ids[compiler]}
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(memo, json.dumps(known, indent=1).encode())
    except OSError:
        pass   # a read-only cache only costs the subprocess next time
    return _compiler_ids[compiler]


def optimisation_flags() -> tuple[str, ...]:
    return DEBUG_FLAGS if config.debug() else RELEASE_FLAGS


def native_flags() -> tuple[str, ...]:
    """NATIVE_FLAGS for kernel modules, unless ASCGEN_NATIVE=0 or the machine is not x86-64 (where g++
    and clang++ both accept -march=native). The host CPU then joins the cache key (`_key_parts`)."""
    if not config.native() or platform.machine().lower() not in ("x86_64", "amd64"):
        return ()
    return NATIVE_FLAGS


@lru_cache(maxsize=1)
def host_cpu_id() -> str:
    """What -march=native depends on: the CPU model and feature flags (Linux /proc/cpuinfo), so a cache
    shared by machines with different CPUs never hands one an .so with instructions it lacks."""
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read(65536)
    except OSError:
        return f"{platform.machine()} {platform.processor()}"
    first = text.split("\n\n", 1)[0]
    keep = [ln for ln in first.splitlines() if ln.split(":", 1)[0].strip() in ("vendor_id", "model name", "flags")]
    return hashlib.sha256("\n".join(keep).encode()).hexdigest()[:16]


# ---- cache key --------------------------------------------------------------------------------------

def _headers_under(folder: Path, recursive: bool) -> list[Path]:
    if not folder.is_dir():
        return []
    pattern = folder.rglob("*") if recursive else folder.glob("*")
    return sorted(p for p in pattern if p.is_file() and p.suffix in HEADER_SUFFIXES)


def _digest_files(files: Sequence[Path]) -> str:
    """sha256 over the files' relative names and contents; memoised on (path, mtime, size)."""
    stamp = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files)
    if stamp not in _header_digests:
        h = hashlib.sha256()
        for f in files:
            h.update(str(f).encode() + b"\0" + f.read_bytes() + b"\0")
        _header_digests[stamp] = h.hexdigest()
    return _header_digests[stamp]


def runtime_headers_digest() -> str:
    """sha256 of every emulated header (runtime/include, runtime/core, runtime/common): part of each key."""
    return _digest_files(_runtime_headers())


def _runtime_headers() -> list[Path]:
    root = resources.runtime_dir()
    return _headers_under(root / "include", True) + _headers_under(root / "core", True) + \
        _headers_under(resources.common_dir(), True)


def _source_text(s: Source) -> str:
    if isinstance(s, SourceText):
        return s.text
    try:
        return Path(s).read_text(errors="replace")
    except OSError as exc:
        raise CompileError(f"cannot read source {s}: {exc.strerror}") from exc


def _key_parts(sources, flags, compiler, root: Path | None = None) -> dict:
    return {
        "cache_version": CACHE_VERSION,
        "sources": [hashlib.sha256(_source_text(s).encode()).hexdigest() for s in sources],
        "source_names": [s.path if isinstance(s, SourceText) else relocate.tokenised(os.path.abspath(s), root)
                         for s in sources],
        "runtime_headers": runtime_headers_digest(),
        "flags": relocate.key_flags(flags, root),
        "compiler": compiler_identity(compiler),
        **({"host_cpu": host_cpu_id()} if "-march=native" in flags else {}),
    }


def cache_key(parts: dict) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:24]


# ---- compile ----------------------------------------------------------------------------------------

def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:60] or "module"


def build_flags(include_dirs=(), defines=None, extra_flags=(), link_libs=()) -> list[str]:
    """The full flag list: base, optimisation, -I (runtime/include first), -D, extra, -l."""
    flags = [*BASE_FLAGS, *optimisation_flags()]
    for d in (*include_dirs, resources.common_dir()):
        flags.append(f"-I{Path(d).resolve()}")
    for k, v in (defines or {}).items():
        flags.append(f"-D{k}" if v is None else f"-D{k}={v}")
    flags.extend(extra_flags)
    flags.extend(f"-l{lib}" if not str(lib).startswith("-") else str(lib) for lib in link_libs)
    return flags


def compile_shared(sources: Iterable[Source], *, include_dirs: Sequence = (), defines: dict | None = None,
                   extra_flags: Sequence[str] = (), link_libs: Sequence[str] = (), name: str = "module",
                   source_root: Path | None = None) -> Path:
    """Compile `sources` into one shared object in the cache and return its path.

    File sources are compiled in place, so diagnostics and __FILE__ name the user's path; `SourceText`
    sources are written to the build folder with a `#line 1 "<path>"` directive for the same effect.
    `source_root`: the folder of a relocatable build (relocate.py): paths under it are kept out of the
    module and its key, so the same sources in another folder find this build.
    Raises CompileError with the first DIAGNOSTIC_LINES lines of the compiler's output.
    """
    sources = list(sources)
    if not sources:
        raise CompileError(f"nothing to compile for {name!r}: no sources given")
    compiler = find_compiler()
    root = Path(source_root).resolve() if source_root is not None else None
    flags = build_flags(include_dirs, defines, [*(relocate.flags(root) if root else []), *extra_flags], link_libs)
    parts = _key_parts(sources, flags, compiler, root)
    base = f"{_safe_name(name)}-{cache_key(parts)}"
    configured = config.cache_dir()
    hit = _lookup(configured, base, root)
    if hit:
        return hit                            # a read-only cache still serves what it holds
    cache = cache_folder.ensure(cache_integrity.writable_root(configured))
    hit = _lookup(cache, base, root)
    if hit:
        return hit
    with _lock(cache / f"{base}.lock"):
        so_path = _entry_now(cache, base, root)
        if so_path is not None:
            manifest = so_path.with_suffix(".json")
            cache_integrity.check_trusted(so_path, manifest)
            why = cache_integrity.problem(so_path, manifest)
            if why is None:                   # another process built it while we waited
                return so_path
            cache_integrity.discard(so_path, manifest, why)
        cache_integrity.clean_stale(cache)
        cache_folder.pinned(cache)            # also removes the pin files of processes that have ended
        so_path = _compile_into(cache, base, sources, flags, compiler, name, root)
        record = {**parts, "name": name, "built": time.time(), **cache_integrity.artifact_record(so_path)}
        write_atomic(so_path.with_suffix(".json"), json.dumps(record, indent=1).encode())
    if cache == configured:                   # a temporary fallback cache is not capped
        cache_folder.evict(keep=so_path)
    return so_path


def _entry_now(cache: Path, base: str, root: Path | None = None) -> Path | None:
    """The module of key stem `base` for the headers as they are now (deps.py; a relocatable build's read
    under `root`), or None if never built."""
    files = deps.read(cache / f"{base}{deps.SUFFIX}")
    return None if files is None else cache / deps.module_name(base, files, root)


def _lookup(cache: Path, base: str, root: Path | None = None) -> Path | None:
    so_path = _entry_now(cache, base, root)
    return None if so_path is None else _cached(so_path, so_path.with_suffix(".json"))


def _cached(so_path: Path, manifest: Path) -> Path | None:
    """`so_path` if the entry is complete and trusted (cache_integrity.check_trusted: CacheError if not);
    None when it must be built."""
    if not _complete(so_path, manifest):
        return None
    cache_integrity.check_trusted(so_path, manifest)
    cache_folder.touch(manifest)              # a use: least-recently-used eviction keeps it longer
    return so_path


def _complete(so_path: Path, manifest: Path) -> bool:
    """The entry exists and its .so has the size and hash its manifest recorded (cache_integrity)."""
    return cache_integrity.problem(so_path, manifest) is None


class _lock:
    """An advisory exclusive lock (fcntl) so concurrent builders of one entry wait instead of all compiling."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        self.fd = os.open(self.path, os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to a temporary name beside `path`, then rename it into place (readers never see half)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        _share(tmp)
        os.replace(tmp, path)
    except BaseException:
        _unlink(tmp)
        raise


def _share(path) -> None:
    """mkstemp makes files 0600; a team cache (ASCGEN_CACHE_SHARED=1) gives them the user's umask instead."""
    if config.cache_shared():
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(path, 0o666 & ~mask)


def _unlink(path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _compile_into(cache: Path, base: str, sources, flags, compiler, name, root: Path | None = None) -> Path:
    """Compile in a build folder, then rename the .so into place under the name its dependencies give it
    (deps.module_name) and record them beside the key; returns the .so's path."""
    workdir = Path(tempfile.mkdtemp(dir=cache, prefix=cache_integrity.build_folder_prefix(_safe_name(name))))
    try:
        inputs = _materialise(sources, workdir)
        tmp_so = workdir / "out.so"
        with console.long_step(f"compiling {name}"):
            if len(inputs) == 1:
                _run(name, sources, _compile_cmd(compiler, flags, inputs, tmp_so, link=True, dep_file=workdir / "0.d"))
            else:
                _compile_parallel(name, sources, compiler, flags, inputs, workdir, tmp_so)
        if not tmp_so.is_file() or tmp_so.stat().st_size == 0:
            raise CompileError(f"compiling {name}: the compiler {compiler} reported success but wrote no shared "
                               f"object. Hint: set ASCGEN_CXX (or CXX) to g++ or clang++.")
        files = deps.recorded(sorted(workdir.glob("*.d")), leave_out=cache, root=root)
        so_path = cache / deps.module_name(base, files, root)
        fd, tmp = tempfile.mkstemp(dir=cache, prefix=f".{so_path.name}.", suffix=".tmp")
        os.close(fd)
        shutil.copyfile(tmp_so, tmp)
        _share(tmp)
        os.replace(tmp, so_path)
        write_atomic(cache / f"{base}{deps.SUFFIX}", deps.as_text(files).encode())
        return so_path
    finally:
        if config.debug():
            (workdir / cache_integrity.KEEP_MARKER).touch()
            console.verbose(f"kept build folder {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def _materialise(sources, workdir: Path) -> list[str]:
    """Paths to compile: files in place; SourceText written to the build folder behind a #line."""
    inputs = []
    for i, s in enumerate(sources):
        if isinstance(s, SourceText):
            src = workdir / f"src{i}_{_safe_name(Path(s.path).name)}"
            if src.suffix not in (".cpp", ".cc", ".cxx", ".c++"):
                src = src.with_name(src.name + ".cpp")
            src.write_text(f'{wrapper.line_directive(s.path)}\n{s.text}')
            inputs.append(str(src))
        else:
            inputs.append(str(Path(s).resolve()))
    return inputs


def _compile_cmd(compiler, flags, inputs, out: Path, link: bool, dep_file: Path) -> list[str]:
    # -x c++ so .asc files (Ascend C's extension) compile as C++; -x none restores detection for -l.
    libs = [f for f in flags if f.startswith("-l")]
    opts = [f for f in flags if not f.startswith("-l")] + deps.compile_flags(dep_file)
    if not link:
        opts = [f for f in opts if f != "-shared"] + ["-c"]
    return [compiler, *opts, "-x", "c++", *inputs, "-x", "none", "-o", str(out), *(libs if link else [])]


def _compile_parallel(name, sources, compiler, flags, inputs, workdir: Path, out: Path) -> None:
    """Several sources: one compiler per source at once (the machine's CPUs), then one link."""
    objects = [workdir / f"obj{i}.o" for i in range(len(inputs))]
    workers = max(1, min(len(inputs), os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        procs = list(pool.map(lambda io: _spawn(_compile_cmd(compiler, flags, [io[0]], io[1], link=False,
                                                             dep_file=io[1].with_suffix(".d"))),
                              zip(inputs, objects)))
    failed = [(cmd, p) for cmd, p in procs if p.returncode != 0]
    if failed:
        raise CompileError(_diagnostics(name, sources, "\n".join(p.stderr or p.stdout for _, p in failed), failed[0][0],
                                        failed[0][1].returncode))
    # Every non-library flag again at link time (-shared, -pthread, -g, -L, -Wl,...); -I/-D are ignored there.
    link = [compiler, *[f for f in flags if not f.startswith("-l")], *map(str, objects), "-o", str(out),
            *[f for f in flags if f.startswith("-l")]]
    _run(name, sources, link)


_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def _die_with_parent(parent: int):
    """preexec_fn: the compiler gets SIGKILL when this process dies (kill -9 included), Linux only; it
    runs between fork and exec, so only a prctl and a getppid."""
    def setup():
        if _libc is not None:
            _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:           # died before the prctl took effect
            os._exit(1)
        _keep_niceness()
    return setup


def _keep_niceness() -> None:
    """A tool runs in a session of its own, which Linux's autogroup scheduling makes a scheduling group of its
    own whose weight ignores the niceness the tool inherited; a tool started by a lowered thread (the core's
    background build, core.build_in_background) gives its group that niceness, so it yields to the compile
    the user waits for."""
    niceness = os.getpriority(os.PRIO_PROCESS, 0)
    if niceness > 0:
        try:
            with open("/proc/self/autogroup", "w") as group:
                group.write(str(niceness))
        except OSError:
            pass


def run_tool(cmd: Sequence[str], timeout: float = COMPILE_TIMEOUT_S) -> subprocess.CompletedProcess:
    """Run a compiler (or linker, archiver) in a process group of its own that dies with this process: on a
    timeout, Ctrl-C or any error here the whole group (g++ and its cc1plus, as, ld) is killed, and after a
    kill -9 of Python the kernel kills the tool itself. CompileError if it cannot be started or times out."""
    cmd = [str(c) for c in cmd]
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                text=True, errors="replace", start_new_session=True,
                                preexec_fn=_die_with_parent(os.getpid()))
    except OSError as exc:
        raise CompileError(f"cannot run {cmd[0]}: {exc.strerror or exc}. Hint: set ASCGEN_CXX (or CXX) to the path "
                           "of g++ or clang++.") from exc
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        _kill_group(proc)
        raise CompileError(f"{Path(cmd[0]).name} took more than {timeout:.0f} s ({_target(cmd)}); gave up") from exc
    except BaseException:
        _kill_group(proc)
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()


def _target(cmd) -> str:
    return cmd[cmd.index("-o") + 1] if "-o" in cmd[:-1] else " ".join(cmd[1:4])


def _spawn(cmd):
    return cmd, run_tool(cmd)


def _run(name, sources, cmd) -> None:
    _, proc = _spawn(cmd)
    if proc.returncode != 0:
        raise CompileError(_diagnostics(name, sources, proc.stderr or proc.stdout, cmd, proc.returncode))


_ERROR_LINE = re.compile(r"\b(?:fatal )?error:")
# Failures of the machine, not of the source: said first, whatever the compiler printed around them.
_MACHINE_FAULTS = ((re.compile(r"No space left on device|Disk quota exceeded", re.I),
                    "the disk is full (no space left on device)",
                    "free space on the disk holding the cache folder ({cache}) and the temporary folder, or set "
                    "ASCGEN_CACHE_DIR to a folder on another disk"),
                   (re.compile(r"Killed signal terminated program|virtual memory exhausted|Cannot allocate memory"),
                    "the compiler ran out of memory",
                    "close other programs, or build fewer sources at once"))


def error_window(lines: list[str]) -> tuple[int, list[str]]:
    """(start, the DIAGNOSTIC_LINES lines shown): the first ones, or, when the first error comes later (after
    warnings, a long include or instantiation chain), the ones that end just after that error."""
    first_error = next((i for i, ln in enumerate(lines) if _ERROR_LINE.search(ln)), 0)
    start = max(0, min(first_error + 3, len(lines)) - DIAGNOSTIC_LINES)
    return start, lines[start:start + DIAGNOSTIC_LINES]


def _diagnostics(name, sources, text: str, cmd, returncode: int | None = None) -> str:
    """The useful line first, then the compiler's first DIAGNOSTIC_LINES lines, or, when its first error comes
    later (after warnings or a long template instantiation chain), the DIAGNOSTIC_LINES lines that end just
    after that error. A full disk or memory is named first, however much linker noise surrounds it."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    where = ", ".join(s.path if isinstance(s, SourceText) else str(s) for s in sources)
    for pattern, what, hint in _MACHINE_FAULTS:
        hit = next((ln for ln in lines if pattern.search(ln)), None)
        if hit:
            return "\n".join([f"compiling {name} ({where}) failed: {what}: {hit.strip()}",
                               "  Hint: " + hint.format(cache=config.cache_dir()),
                               *("  " + ln for ln in lines[:8]),
                               *([f"  ... {len(lines) - 8} more lines"] if len(lines) > 8 else [])])
    if not lines:
        status = (f"was killed by signal {-returncode}" if returncode is not None and returncode < 0
                  else f"exited with status {returncode}")
        return (f"compiling {name} ({where}) failed: the compiler {cmd[0]} {status} and printed nothing. "
                "Hint: check ASCGEN_CXX / CXX (a C++17 compiler: g++ or clang++) and the free disk space.")
    start, shown = error_window(lines)
    more = len(lines) - len(shown) - start
    msg = [f"compiling {name} ({where}) failed:"]
    if start:
        msg.append(f"  ... {start} lines before the first error not shown")
    msg += ["  " + ln for ln in shown]
    if more > 0:
        msg.append(f"  ... {more} more lines (set ASCGEN_DEBUG=1 and rerun to keep the build folder)")
    if config.debug():
        msg.append("  command: " + " ".join(cmd))
    return "\n".join(msg)
