"""The C++ layering, read from every `#include "..."` under runtime/ (the Python side is test_layering.py).

Each file has a role, given by the folder it is in (a few files by name, where a file's role and its folder
still differ); a role may include only the roles its row allows:

    builtin      runtime/include              the builtin Ascend C library    builtin, core, common
    core         runtime/core                 the core and its interface      core, common
    common       runtime/common               what both libraries share       common
    devkit       runtime/devkit/include       CANN stand-ins, the CCE models  devkit, core, common
    devkit-host  runtime/devkit/host          the CANN host pieces            devkit-host, common
    ops-host     runtime/ops/host             closed CANN pieces op_host code  ops-host, devkit-host, common
                                              includes, the tiling runner

So the builtin library never includes the devkit. And no include reaches another include folder with
`../`: a file names what it includes through the include folder that holds it ("ascgen/rt.h", never
"../../../core/include/ascgen/rt.h"), so moving a folder changes the include path, not the sources.

Includes resolve as the compiler does: beside the including file, then through the include folders; what
resolves to nothing under runtime/ (the asc-devkit tree, system and generated headers) is not ours.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.paths import REPO

RUNTIME = REPO / "runtime"

# Folder (or file) -> role; the longest matching prefix wins. The file rows are the core's interface and
# the shared arithmetic, which still sit in the builtin library's folder.
ROLES = {
    "runtime/include": "builtin",
    "runtime/include/ascendc/half.h": "common",
    "runtime/include/ascgen/int4.h": "common",
    "runtime/include/ascgen/gemm.h": "common",
    "runtime/core": "core",
    "runtime/common": "common",
    "runtime/devkit/include": "devkit",
    "runtime/devkit/host": "devkit-host",
    "runtime/ops/host": "ops-host",
}
MAY_INCLUDE = {
    "builtin": {"builtin", "core", "common"},
    "core": {"core", "common"},
    "common": {"common"},
    "devkit": {"devkit", "core", "common"},
    "devkit-host": {"devkit-host", "common"},
    "ops-host": {"ops-host", "devkit-host", "common"},
}
# The include folders (-I), searched in this order for a file of each role; runtime/include is the
# devkit build's too (after the model folder), as ascgen/runtime/backends/devkit/toolchain.py sets it.
INCLUDE_DIRS = {
    "builtin": ("runtime/include", "runtime/core/include", "runtime/common"),
    "core": ("runtime/include", "runtime/core/include", "runtime/core", "runtime/common"),
    "common": ("runtime/common", "runtime/include", "runtime/core/include", "runtime/devkit/include"),   # included by every build
    "devkit": ("runtime/devkit/include", "runtime/include", "runtime/core/include", "runtime/common"),
    "devkit-host": ("runtime/devkit/host/include", "runtime/include", "runtime/core/include", "runtime/common"),
    "ops-host": ("runtime/ops/host/include", "runtime/common", "runtime/devkit/host/include"),   # ascgen/ops/host_build.py
}
# Known crossings, each with why it is still there; an entry that no longer occurs fails the test (so the
# list only shrinks).
KNOWN = {
    ("runtime/devkit/include/ascgen_devkit/dav3510/intrinsics.h", "runtime/include/ascgen/host_icpu.h"):
        "the library's CPU-debug host API (KernelMode, GmAlloc) is the builtin's host glue; issue 18 point 3",
    ("runtime/devkit/include/tikicpulib.h", "runtime/include/ascgen/host_icpu.h"):
        "the same host API, for host programs of the devkit backend",
    ("runtime/devkit/include/tikicpulib.h", "runtime/devkit/host/include/ascgen_kernel_type_macros_end.h"):
        "the kernel build has the host include folder only for host programs (devkit_module)",
}
# Names the asc-devkit tree provides ahead of runtime/include in the devkit build (its include folders come
# right after the model folder): a devkit file including one means the library's.
LIBRARY_NAMES = {"kernel_operator.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SUFFIXES = {".h", ".hpp", ".cpp", ".cc", ".def", ".inc"}


def role(rel: str) -> str | None:
    best = max((p for p in ROLES if rel == p or rel.startswith(p + "/")), key=len, default=None)
    return ROLES[best] if best else None


def include_root(rel: str) -> str | None:
    """The include folder a file is reached through (the longest -I folder holding it)."""
    roots = {d for dirs in INCLUDE_DIRS.values() for d in dirs} | {"runtime/devkit/host", "runtime/ops/host"}
    return max((d for d in roots if rel.startswith(d + "/")), key=len, default=None)


def resolve(rel: str, spelled: str, exists=lambda r: (REPO / r).is_file()) -> str | None:
    here = os.path.normpath(os.path.join(os.path.dirname(rel), spelled))
    if exists(here):
        return here
    if role(rel) == "devkit" and spelled in LIBRARY_NAMES:
        return None
    for d in INCLUDE_DIRS.get(role(rel), ()):
        candidate = os.path.normpath(os.path.join(d, spelled))
        if exists(candidate):
            return candidate
    return None


def problems(rel: str, text: str, exists=lambda r: (REPO / r).is_file()) -> list[tuple[str, str, str]]:
    """(file, target, what is wrong) for each include of `text` (the file `rel`) that breaks a rule."""
    found = []
    own = role(rel)
    for spelled in INCLUDE.findall(text):
        target = resolve(rel, spelled, exists)
        if target is None or not target.startswith("runtime/"):
            continue
        other = role(target)
        if other not in MAY_INCLUDE[own]:
            found.append((rel, target, f"a {own} file includes {spelled!r}, a {other} file"))
        if ".." in Path(spelled).parts and include_root(target) != include_root(rel):
            found.append((rel, target, f"{spelled!r} reaches {include_root(target)} with '../': "
                                       f"include it through its include folder"))
    return found


def sources() -> list[str]:
    return sorted(p.relative_to(REPO).as_posix() for p in RUNTIME.rglob("*") if p.suffix in SUFFIXES and p.is_file())


def all_problems() -> list[tuple[str, str, str]]:
    return [pr for rel in sources() for pr in problems(rel, (REPO / rel).read_text(errors="replace"))]


def test_every_runtime_file_has_a_role():
    assert not [rel for rel in sources() if role(rel) is None]


def test_includes_follow_the_roles():
    wrong = [f"{f}: {why}" for f, t, why in all_problems() if (f, t) not in KNOWN]
    assert not wrong, "C++ layering broken:\n" + "\n".join(wrong)


def test_the_known_crossings_are_still_there():
    seen = {(f, t) for f, t, _ in all_problems()}
    gone = [f"{f} -> {t}" for f, t in KNOWN if (f, t) not in seen]
    assert not gone, "fixed, so remove from KNOWN: " + ", ".join(gone)


@pytest.mark.parametrize("rel, text, expect", [
    # the builtin library reaching into the devkit (its include path has no devkit folder: only by ../)
    ("runtime/include/ascendc/x.h", '#include "../../devkit/include/ascgen_devkit/state.h"\n', "a builtin file includes"),
    # the devkit reaching the core's interface with ../ instead of its include folder
    ("runtime/devkit/include/ascgen_devkit/x.h", '#include "../../../core/include/ascgen/rt.h"\n', "with '../'"),
    ("runtime/devkit/include/ascgen_devkit/x.h", '#include "ascgen/rt.h"\n', None),
    # ../ inside one include folder is fine
    ("runtime/devkit/include/ascgen_devkit/dav3510/x.h", '#include "../state.h"\n', None),
    # the shared code depending on a library
    ("runtime/common/x.h", '#include "ascendc/ub.h"\n', "a common file includes"),
])
def test_planted_violations_are_found(rel, text, expect):
    found = problems(rel, text)
    if expect is None:
        assert not found
    else:
        assert any(expect in why for _, _, why in found), found
