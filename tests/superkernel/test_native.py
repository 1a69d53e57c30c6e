"""C++ unit drivers for the race detector (runtime/core/hb.cpp) and the cost model (timeline.cpp).

Each driver links one core source directly (no threads, no Python), so these checks pin the detector's
verdicts and the model's arithmetic independently of the rest of the runtime."""
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ascgen import config, resources
from tests.paths import SK_NATIVE

HERE = SK_NATIVE
SRC = resources.core_dir()

DRIVERS = {
    "hb_test": ["hb.cpp"],
    "timeline_test": ["timeline.cpp"],
}


def _compiler() -> str:
    cxx = config.compiler() or shutil.which("g++") or shutil.which("clang++")
    if not cxx:
        pytest.fail("no C++ compiler on PATH (g++ or clang++)")
    return cxx


def _build(name: str) -> Path:
    sources = [HERE / f"{name}.cpp", *(SRC / s for s in DRIVERS[name])]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources + [SRC / "hb.h", SRC / "timeline.h"]))
    out = config.cache_dir() / "sk_native" / f"{name}-{digest.hexdigest()[:16]}"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".tmp{os.getpid()}")   # per process: xdist workers may build it at once
    cmd = [_compiler(), "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror",
           *(f"-I{d}" for d in resources.include_dirs()), f"-I{SRC}", f"-I{resources.common_dir()}", *map(str, sources), "-o", str(tmp)]
    subprocess.run(cmd, check=True)
    tmp.replace(out)
    return out


@pytest.mark.parametrize("name", sorted(DRIVERS))
def test_native_driver(name):
    exe = _build(name)
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "FAIL" not in proc.stdout and proc.stdout.count("ok ") >= 5, proc.stdout
