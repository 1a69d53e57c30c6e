"""Every environment knob ascgen reads, in one place (documented in the README)."""
import os
import re
from pathlib import Path

from ascgen.errors import SpecError


CACHE_TAG = "CACHEDIR.TAG"     # https://bford.info/cachedir/: backup tools skip the folder; ascgen knows it
CACHE_SUBFOLDER = "ascgen"     # where ascgen keeps its cache inside a folder of the user's (see cache_dir)
_CACHE_TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                   "# This folder is a cache created by ascgen (compiled Ascend C kernels); "
                   "`ascgen cache clear` empties it.\n")
_claimed: dict[str, Path] = {}  # configured folder -> the folder in use, once decided (a stat per call after)


def cache_setting() -> tuple[Path, bool]:
    """ASCGEN_CACHE_DIR as set, and whether it is the default (~/.cache/ascgen, when unset)."""
    explicit = os.environ.get("ASCGEN_CACHE_DIR")
    return (Path(explicit), False) if explicit else (Path.home() / ".cache" / "ascgen", True)


def cache_shared() -> bool:
    """ASCGEN_CACHE_SHARED=1: the cache folder is shared by a team on purpose. New folders and files take the
    user's umask (not 0700 / 0600), and entries owned by another user or in a group-writable folder are
    loaded; a world-writable one never is (docs/runtime.md, "Cache")."""
    return os.environ.get("ASCGEN_CACHE_SHARED", "") not in ("", "0")


def cache_dir() -> Path:
    """The cache folder in use (compiled kernels, the core runtime, ...): ASCGEN_CACHE_DIR, default
    ~/.cache/ascgen. ascgen tags a folder it creates, or finds empty, with CACHEDIR.TAG and then owns it;
    a folder holding other files and no tag (a mistaken ASCGEN_CACHE_DIR=$HOME) is never written into:
    the cache goes to its `ascgen/` subfolder instead (runtime/build/cache.py warns)."""
    configured, _ = cache_setting()
    known = _claimed.get(str(configured))
    if known is not None:
        return known
    folder = configured
    for _ in range(2):
        verdict = _claim(folder)
        if verdict != "foreign":
            if verdict == "ours":
                _claimed[str(configured)] = folder
            return folder
        folder = folder / CACHE_SUBFOLDER
    raise SpecError(f"neither {configured} nor {folder.parent} is an ascgen cache: both hold other files and no "
                    f"{CACHE_TAG}. Hint: set ASCGEN_CACHE_DIR to a new or empty folder.")


def _claim(folder: Path) -> str:
    """"ours" (tagged, or created / found empty and tagged now), "foreign" (other files, no tag) or
    "unwritable" (missing or empty and cannot be tagged: a read-only place, used as it is)."""
    if (folder / CACHE_TAG).is_file():
        return "ours"
    try:
        # The tag again after the scan: another process may have tagged the folder and written into it
        # between the check above and the scan (it writes only after tagging), which is not foreign.
        if folder.is_dir() and any(os.scandir(folder)):
            return "ours" if (folder / CACHE_TAG).is_file() else "foreign"
        folder.mkdir(mode=0o777 if cache_shared() else 0o700, parents=True, exist_ok=True)
        fd = os.open(folder / CACHE_TAG, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                     0o666 if cache_shared() else 0o600)
    except FileExistsError:
        return "ours"               # another process tagged it first
    except OSError:
        return "unwritable"
    with os.fdopen(fd, "w") as f:
        f.write(_CACHE_TAG_TEXT)
    return "ours"


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
    raw (__gm__ T*) accesses too (runtime/core/raw_gm.cpp; off by default, see docs/reliability.md)."""
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


def builtin_pch() -> bool:
    """ASCGEN_BUILTIN_NO_PCH=1: builtin-backend modules compile without the precompiled emulated headers
    (slower; for telling a PCH problem from a kernel's)."""
    return os.environ.get("ASCGEN_BUILTIN_NO_PCH", "") in ("", "0")


def devkit_pch() -> bool:
    """ASCGEN_DEVKIT_NO_PCH=1: the devkit backend compiles without its precompiled library header (slower;
    for telling a PCH problem from a kernel's)."""
    return os.environ.get("ASCGEN_DEVKIT_NO_PCH", "") in ("", "0")


def debug() -> bool:
    """ASCGEN_DEBUG=1: keep build directories, compile with -O0 -g, print tracebacks in the CLI."""
    return os.environ.get("ASCGEN_DEBUG", "") not in ("", "0")


# Where a CANN installation may keep the Ascend C library, relative to ASCEND_HOME_PATH (set by CANN's
# set_env.sh). A candidate counts only if it has the library's two top folders, include/ and impl/.
_CANN_LIBRARY_PLACES = ("compiler/ascendc", "x86_64-linux/ascendc", "aarch64-linux/ascendc", "ascendc")


def cann_sources() -> Path | None:
    """ASCGEN_CANN_SOURCES: a folder holding the public CANN source repositories side by side under their
    repository names (asc-devkit, metadef, opbase, ops-tensor, ops-nn, ...). None when unset."""
    value = os.environ.get("ASCGEN_CANN_SOURCES")
    return Path(value) if value else None


def cann_repository(name: str) -> Path | None:
    """One CANN source repository by name: its own setting when it has one (ASCGEN_ASC_DEVKIT for
    asc-devkit), else ASCGEN_CANN_SOURCES/<name> when that folder exists; None otherwise."""
    if name == "asc-devkit":
        return asc_devkit()
    folder = cann_sources()
    return folder / name if folder is not None and (folder / name).is_dir() else None


def asc_devkit() -> Path | None:
    """ASCGEN_ASC_DEVKIT: the asc-devkit tree (a clone of the public repository or an extracted snapshot;
    the folder holding include/, impl/ and examples/). Without it, ASCGEN_CANN_SOURCES/asc-devkit, then the
    library inside a CANN installation (ASCEND_HOME_PATH) if one is found there. None when none gives a tree."""
    explicit = os.environ.get("ASCGEN_ASC_DEVKIT")
    if explicit:
        return Path(explicit)
    sources = cann_sources()
    if sources is not None and (sources / "asc-devkit" / "include").is_dir():
        return sources / "asc-devkit"
    home = os.environ.get("ASCEND_HOME_PATH")
    for place in _CANN_LIBRARY_PLACES if home else ():
        candidate = Path(home or "") / place
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


# ---- `ascgen ut` (docs/ut.md) -----------------------------------------------------------------------

GTEST_HINT = ("install googletest (Debian/Ubuntu: apt-get install libgtest-dev), or set ASCGEN_GTEST_ROOT to a "
              "folder holding include/gtest/gtest.h and lib/libgtest.a")
_GTEST_PLACES = ("/usr", "/usr/local")


def gtest_root() -> Path | None:
    """ASCGEN_GTEST_ROOT: the googletest installation `ascgen ut` builds with (a folder holding
    include/gtest/gtest.h and lib/ or lib64/ with libgtest.a or libgtest.so). Without it, /usr then
    /usr/local (the libgtest-dev package). None when no googletest is found."""
    explicit = os.environ.get("ASCGEN_GTEST_ROOT")
    for place in ((explicit,) if explicit else _GTEST_PLACES):
        if (Path(place) / "include" / "gtest" / "gtest.h").is_file():
            return Path(place)
    return None


def gtest_library(root: Path) -> Path | None:
    """The folder of libgtest under a googletest root (multiarch lib/<triplet>/ included), None if absent."""
    for folder in sorted({*root.glob("lib*"), *root.glob("lib*/*-linux-gnu")}):
        if any((folder / name).exists() for name in ("libgtest.a", "libgtest.so")):
            return folder
    return None


UT_DEFAULT_BUILD_LIMIT = 1800


def ut_build_limit() -> int:
    """ASCGEN_UT_BUILD_LIMIT: seconds `ascgen ut` waits for the build of one UT program (default 1800: a cold
    devkit build precompiles the library header first)."""
    return _positive_int("ASCGEN_UT_BUILD_LIMIT", UT_DEFAULT_BUILD_LIMIT)
