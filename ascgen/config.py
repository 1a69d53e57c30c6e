"""Every environment knob ascgen reads, in one place (documented in the README)."""
import os
from pathlib import Path


def cache_dir() -> Path:
    """ASCGEN_CACHE_DIR: compiled kernels and the core runtime (default ~/.cache/ascgen)."""
    return Path(os.environ.get("ASCGEN_CACHE_DIR") or Path.home() / ".cache" / "ascgen")


def compiler() -> str | None:
    """ASCGEN_CXX (then CXX): the C++17 compiler; None means: look for g++ then clang++ on PATH."""
    return os.environ.get("ASCGEN_CXX") or os.environ.get("CXX") or None


def update_golden() -> bool:
    """ASCGEN_UPDATE_GOLDEN=1: the golden test rewrites generated/ instead of failing on a difference."""
    return os.environ.get("ASCGEN_UPDATE_GOLDEN", "") not in ("", "0")


def native() -> bool:
    """ASCGEN_NATIVE=0: compile kernels without -march=native (e.g. for a cache shared by different CPUs)."""
    return os.environ.get("ASCGEN_NATIVE", "1") not in ("", "0")


def debug() -> bool:
    """ASCGEN_DEBUG=1: keep build directories, compile with -O0 -g, print tracebacks in the CLI."""
    return os.environ.get("ASCGEN_DEBUG", "") not in ("", "0")
