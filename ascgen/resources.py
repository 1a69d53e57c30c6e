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
    """The emulated Ascend C headers: put first on the include path to compile or parse kernels."""
    return runtime_dir() / "include"


def common_dir() -> Path:
    """What both libraries share (the element rules): on the include path beside include_dir()."""
    return runtime_dir() / "common"
