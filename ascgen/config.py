"""Every environment knob ascgen reads, in one place (documented in the README)."""
import os
import re
from pathlib import Path

from ascgen.errors import SpecError


def cache_dir() -> Path:
    """ASCGEN_CACHE_DIR: compiled kernels and the core runtime (default ~/.cache/ascgen)."""
    return Path(os.environ.get("ASCGEN_CACHE_DIR") or Path.home() / ".cache" / "ascgen")


def compiler() -> str | None:
    """ASCGEN_CXX (then CXX): the C++17 compiler; None means: look for g++ then clang++ on PATH."""
    return os.environ.get("ASCGEN_CXX") or os.environ.get("CXX") or None


GM_GUARD_DEFAULT_MAX_BYTES = 1 << 20


def gm_guard_max_bytes() -> int:
    """ASCGEN_GM_GUARD: the GM arrays that get guard zones against raw-pointer writes past them
    (runtime/gm_guard.py). Unset or 1: arrays up to 1 MiB (the copy costs little there); `all`: every
    array; 0: none (arrays bound directly). Returns the size limit in bytes (0 = off)."""
    value = os.environ.get("ASCGEN_GM_GUARD", "1").strip().lower()
    if value == "0":
        return 0
    return 1 << 62 if value == "all" else GM_GUARD_DEFAULT_MAX_BYTES


def raw_gm_races() -> bool:
    """ASCGEN_RAW_GM_RACES=1: build kernel modules with load/store instrumentation so the race detector sees
    raw (__gm__ T*) accesses too (runtime/src/raw_gm.cpp; off by default, see docs/reliability.md)."""
    return os.environ.get("ASCGEN_RAW_GM_RACES", "") not in ("", "0")


def poison_local() -> bool:
    """ASCGEN_POISON_LOCAL=0: no poisoning of local memory per kernel call and no report of never-written UB
    copied to GM. Read by the emulated library itself (runtime/include/ascendc/ub.h); listed here so every
    knob is in one place."""
    return os.environ.get("ASCGEN_POISON_LOCAL", "1") != "0"


def update_golden() -> bool:
    """ASCGEN_UPDATE_GOLDEN=1: the golden test rewrites generated/ instead of failing on a difference."""
    return os.environ.get("ASCGEN_UPDATE_GOLDEN", "") not in ("", "0")


def native() -> bool:
    """ASCGEN_NATIVE=0: compile kernels without -march=native (e.g. for a cache shared by different CPUs)."""
    return os.environ.get("ASCGEN_NATIVE", "1") not in ("", "0")


def debug() -> bool:
    """ASCGEN_DEBUG=1: keep build directories, compile with -O0 -g, print tracebacks in the CLI."""
    return os.environ.get("ASCGEN_DEBUG", "") not in ("", "0")


# Where a CANN installation may keep the Ascend C library, relative to ASCEND_HOME_PATH (set by CANN's
# set_env.sh). A candidate counts only if it has the library's two top folders, include/ and impl/.
_CANN_LIBRARY_PLACES = ("compiler/ascendc", "x86_64-linux/ascendc", "aarch64-linux/ascendc", "ascendc")


def asc_devkit() -> Path | None:
    """ASCGEN_ASC_DEVKIT: the asc-devkit tree (a clone of the public repository or an extracted snapshot;
    the folder holding include/, impl/ and examples/). Without it, the library inside a CANN installation
    (ASCEND_HOME_PATH) if one is found there. None when neither gives a tree."""
    explicit = os.environ.get("ASCGEN_ASC_DEVKIT")
    if explicit:
        return Path(explicit)
    home = os.environ.get("ASCEND_HOME_PATH")
    for place in _CANN_LIBRARY_PLACES if home else ():
        candidate = Path(home) / place
        if (candidate / "include").is_dir() and (candidate / "impl").is_dir():
            return candidate
    return None


ASC_DEVKIT_HINT = ("set ASCGEN_ASC_DEVKIT to an asc-devkit tree (a clone of the public asc-devkit repository, "
                   "or an extracted snapshot: the folder that holds include/, impl/ and examples/), or source "
                   "a CANN installation's set_env.sh so ASCEND_HOME_PATH points at it")


DEFAULT_CACHE_LIMIT = 1 << 30      # 1 GiB
_SIZE_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20,
               "MIB": 1 << 20, "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30}


def cache_limit() -> int:
    """ASCGEN_CACHE_LIMIT: the cache's size cap in bytes (`500M`, `2GiB`, `1073741824`; default 1 GiB;
    `0` means no cap). Past it, the least recently used entries are evicted after each build."""
    raw = os.environ.get("ASCGEN_CACHE_LIMIT", "").strip()
    if not raw:
        return DEFAULT_CACHE_LIMIT
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([A-Za-z]*)", raw)
    unit = match.group(2).upper() if match else None
    if not match or unit not in _SIZE_UNITS:
        raise SpecError(f"ASCGEN_CACHE_LIMIT={raw!r} is not a size; write bytes or a number with K, M or G "
                        "(for example 500M or 2GiB), or 0 for no cap")
    return int(float(match.group(1)) * _SIZE_UNITS[unit])


CHECK_DEFAULT_MAX_SOURCE_MB = 8
CHECK_DEFAULT_TIME_LIMIT = 120


def check_max_source_bytes() -> int:
    """ASCGEN_CHECK_MAX_SOURCE_MB: `ascgen check` refuses a source whose own files (the source and the
    user's headers it includes) total more than this many MiB (default 8; the largest production
    operator kernels measured are under 1 MiB, a 24 MB file took minutes and gigabytes)."""
    return _positive_int("ASCGEN_CHECK_MAX_SOURCE_MB", CHECK_DEFAULT_MAX_SOURCE_MB) << 20


def check_time_limit() -> int:
    """ASCGEN_CHECK_TIME_LIMIT: CPU seconds `ascgen check` may spend on the path analysis of one source
    (default 120; the slowest production operator measured takes about 12 s)."""
    return _positive_int("ASCGEN_CHECK_TIME_LIMIT", CHECK_DEFAULT_TIME_LIMIT)


def _positive_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) == 0:
        raise SpecError(f"{name}={raw!r} is not a positive whole number (default {default})")
    return int(raw)
