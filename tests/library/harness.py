"""Build and run small C++ programs against runtime/include and the single-threaded rt stub.

Used by tests/test_library*.py. Binaries are cached by a hash of the sources, every header under
runtime/include, the flags and the compiler's identity, in $ASCGEN_CACHE_DIR/libtest (default
~/.cache/ascgen/libtest); entries are written to a temporary name and renamed, so pytest-xdist workers
building the same program at once never see a half-written file.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

import ml_dtypes
import numpy as np

from tests.paths import LIBRARY_STUB, REPO

INCLUDE = REPO / "runtime" / "include"
COMMON = REPO / "runtime" / "common"
STUB = LIBRARY_STUB / "rt_stub.cpp"
CXX = os.environ.get("CXX", "g++")
BASE_FLAGS = ("-std=c++17", "-O1", "-g0", "-Wall", "-Wno-unused-variable")


@lru_cache(maxsize=1)
def _compiler_id() -> str:
    return subprocess.run([CXX, "--version"], capture_output=True, text=True, check=True).stdout


@lru_cache(maxsize=1)
def _headers_digest() -> str:
    # Once per test process: the headers do not change while tests run.
    h = hashlib.sha256()
    for p in sorted([*INCLUDE.rglob("*.h"), *COMMON.rglob("*.h")]):
        h.update(str(p.relative_to(REPO)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def cache_dir() -> Path:
    base = os.environ.get("ASCGEN_CACHE_DIR") or str(Path.home() / ".cache" / "ascgen")
    d = Path(base) / "libtest"
    d.mkdir(parents=True, exist_ok=True)
    return d


class BuildError(RuntimeError):
    pass


def build(name: str, source: str | Path, *, flags: tuple[str, ...] = (), includes: tuple[Path, ...] = (),
          stub: bool = True, arch: int = 2201) -> Path:
    """Compile `source` (text or a .cpp path) with the stub into an executable for `__NPU_ARCH__` = arch."""
    text = source.read_text() if isinstance(source, Path) else source
    key_flags = BASE_FLAGS + (f"-D__NPU_ARCH__={arch}",) + tuple(flags)
    all_flags = key_flags + tuple(f"-I{p}" for p in includes) + (f"-I{INCLUDE}", f"-I{COMMON}")
    # Extra include folders are often temporary: key them by their headers' contents, not their paths.
    extra = "".join(h.read_text() for d in includes for h in sorted(Path(d).glob("*.h")))
    key = hashlib.sha256("\0".join([text, extra, STUB.read_text() if stub else "", _headers_digest(),
                                    " ".join(key_flags), _compiler_id()]).encode()).hexdigest()[:20]
    exe = cache_dir() / f"{name}-{key}"
    if exe.exists():
        return exe
    with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
        src = Path(tmp) / f"{name}.cpp"
        src.write_text(text)
        out = Path(tmp) / name
        cmd = [CXX, *all_flags, str(src), *([str(STUB)] if stub else []), "-o", str(out)]
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            raise BuildError(f"compiling {name} failed:\n{res.stderr[-6000:]}")
        os.replace(out, exe)
    return exe


def syntax_check(source: str | Path, *, flags: tuple[str, ...] = (), includes: tuple[Path, ...] = (),
                 arch: int = 2201) -> subprocess.CompletedProcess:
    """g++ -fsyntax-only against runtime/include; returns the completed process (stderr has the messages)."""
    path = source if isinstance(source, Path) else None
    with tempfile.TemporaryDirectory() as tmp:
        if path is None:
            path = Path(tmp) / "src.cpp"
            path.write_text(source)
        cmd = [CXX, *BASE_FLAGS, f"-D__NPU_ARCH__={arch}", *flags, *(f"-I{p}" for p in includes), f"-I{INCLUDE}", f"-I{COMMON}", "-fsyntax-only", str(path)]
        return subprocess.run(cmd, capture_output=True, text=True)


def run(exe: Path, *args: str, stdin: bytes = b"", env: dict | None = None, cwd: Path | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess:
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([str(exe), *map(str, args)], input=stdin, capture_output=True, env=full_env,
                          cwd=cwd, timeout=timeout)


def have_compiler() -> bool:
    return shutil.which(CXX) is not None


# Short dtype names the C++ drivers use, and their numpy types.
NP = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "i32": np.int32, "i16": np.int16,
      "i8": np.int8, "u8": np.uint8}


def vec_driver(ub_bytes: int):
    """A caller of vec_driver.cpp (built once) with `ub_bytes` of stub UB: call(*args, data=, expect_fault=)
    returns stdout, or with expect_fault the fault text (the driver exits 3 on a library fault)."""
    exe = build("vec_driver", LIBRARY_STUB / "vec_driver.cpp")

    def call(*args, data: bytes = b"", expect_fault: bool = False):
        res = run(exe, *args, stdin=data, env={"ASCGEN_STUB_UB": str(ub_bytes)})
        if expect_fault:
            assert res.returncode == 3, res.stderr.decode()
            return res.stderr.decode()
        assert res.returncode == 0, res.stderr.decode()
        return res.stdout
    return call
