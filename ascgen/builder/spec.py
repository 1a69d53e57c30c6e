"""Spec files: plain Python that builds kernels; `load_spec` runs one and collects its kernels."""
from __future__ import annotations

import os
import runpy
import sys
import traceback

from ascgen.builder.kernel import Kernel
from ascgen.errors import SpecError


def _line_in(exc: BaseException, path: str) -> str:
    """":<line>" of the spec file's innermost frame in the exception's traceback, or ""."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.abspath(f.filename) == os.path.abspath(path)]
    return f":{frames[-1].lineno}" if frames else ""


def load_spec(path) -> list:
    """Run a spec file and return its kernels: `KERNELS` if defined, else every module-level Kernel
    in creation order. SpecError when it defines none, on duplicate names, or if the file fails."""
    try:
        path = os.fspath(path)
    except TypeError:
        raise SpecError(f"a spec file is named by a path; got {path!r}") from None
    if not isinstance(path, str):
        path = os.fsdecode(path)
    if "\0" in path or not os.path.isfile(path):
        raise SpecError(f"spec file {path!r} does not exist")
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    try:
        namespace = runpy.run_path(path, run_name="__ascgen_spec__")
    except SpecError:
        raise
    except SyntaxError as exc:
        raise SpecError(f"{os.path.basename(path)}:{exc.lineno}: syntax error in spec file: {exc.msg}") from None
    except SystemExit as exc:
        # A spec that calls sys.exit() (or exit()) would end ascgen with its code and no word said.
        raise SpecError(f"{os.path.basename(path)}{_line_in(exc, path)}: the spec file called sys.exit({exc.code!r}); "
                        "a spec file must define kernels, not end the program. Hint: remove the exit call, or "
                        "guard it with `if __name__ == \"__main__\":`.") from None
    except Exception as exc:  # noqa: BLE001 - any failure of user code becomes one clear message
        line = _line_in(exc, path)
        raise SpecError(f"{os.path.basename(path)}{line}: running the spec file raised "
                        f"{type(exc).__name__}: {exc}") from None
    finally:
        if sys.path and sys.path[0] == folder:
            sys.path.pop(0)
    if "KERNELS" in namespace:
        try:
            kernels = list(namespace["KERNELS"])
        except Exception as exc:  # noqa: BLE001 - KERNELS = 5, or an iterable that raises
            raise SpecError(f"{os.path.basename(path)}: KERNELS must be a list of Kernel objects; got "
                            f"{type(namespace['KERNELS']).__name__} ({type(exc).__name__}: {exc})") from None
        bad = [k for k in kernels if not isinstance(k, Kernel)]
        if bad:
            raise SpecError(f"{os.path.basename(path)}: KERNELS must hold Kernel objects, found {bad[0]!r}")
    else:
        seen: dict[int, Kernel] = {}
        for value in namespace.values():
            if isinstance(value, Kernel):
                seen[id(value)] = value
        kernels = sorted(seen.values(), key=lambda k: k._order)
    if not kernels:
        raise SpecError(f"{os.path.basename(path)} defines no kernel: bind a Kernel to a module-level name "
                        f"or list kernels in KERNELS = [...]")
    names: dict[str, Kernel] = {}
    for k in kernels:
        if k.name in names:
            raise SpecError(f"{os.path.basename(path)}: two kernels are named {k.name!r} "
                            f"({names[k.name].source} and {k.source})")
        names[k.name] = k
    return kernels
