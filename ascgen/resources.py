"""Where the shipped non-Python files live: the repository's templates/ and runtime/ when running from a
checkout (or an editable install), ascgen/_templates and ascgen/_runtime inside an installed wheel."""
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(repo_name: str, wheel_name: str) -> Path:
    installed = _PACKAGE / wheel_name
    if installed.is_dir():
        return installed
    checkout = _PACKAGE.parent / repo_name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"ascgen is installed without its {repo_name}/ folder (looked in {installed} and {checkout})")


def templates_dir() -> Path:
    return _find("templates", "_templates")


def runtime_dir() -> Path:
    return _find("runtime", "_runtime")


def include_dir() -> Path:
    """The emulated Ascend C headers (the builtin library)."""
    return runtime_dir() / "include"


def core_dir() -> Path:
    """The core runtime's sources (runtime/core); its interface headers are in core_dir() / "include"."""
    return runtime_dir() / "core"


def include_dirs() -> list[Path]:
    """The builtin library's include path: its headers, then the core's interface (ascgen/rt.h,
    ascgen/code_site.h). Put first on the include path to compile or parse kernels."""
    return [include_dir(), core_dir() / "include"]


def common_dir() -> Path:
    """What both Ascend C libraries (builtin and devkit) share: on every build's include path, after them."""
    return runtime_dir() / "common"


def ops_host_dir() -> Path:
    """ascgen's stand-ins for the closed pieces of CANN's host side (base/err_msg.h, dlog_pub.h, mmpa...) and
    the sources defining what they declare: used by ascgen.ops' host builds and by kernel UTs that include an
    op_host header."""
    return runtime_dir() / "ops" / "host"
