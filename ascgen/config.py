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
