"""CANN's installed header layout over an asc-devkit source tree, as links made from the tree's own CMake rules.

Operator sources include library headers by the names a CANN installation (or the library's build tree)
gives them, which the source tree has elsewhere: `ascendc/host_api/tiling/template_argument.h` (the tree's
include/utils/tiling/template_argument.h), `impl/dav_c220/kernel_operator_reg_others_impl.h` (the tree's
impl/basic_api/dav_c220/...). The tree's CMake files say where each name comes from; this module reads three
kinds of rule, none of them per header:

* the package layout: `install_package(... DIRECTORY ${ASCENDC_DIR}/include/<api> DESTINATION
  .../asc/include ...)` and the same for impl (impl/basic_api/CMakeLists.txt): `asc/include/<entry>` and
  `asc/impl/<entry>` are the tree's include/<entry> and impl/<entry>;
* every `file(CREATE_LINK <target> ${...}/${INSTALL_LIBRARY_DIR}/<path> SYMBOLIC)` install rule: the link
  <path> -> <target>, as written (relative to the installed tree, so it resolves inside the farm);
* the build tree's header copies `cp -rf ${ASCENDC_DIR}/<file> ${CMAKE_BINARY_DIR}/include/<folder>`
  (impl/basic_api/CMakeLists.txt, target hostapi_headers, on the include path of tikcfw_headers).

The farm is built once per tree into the cache and never writes into the tree (a link whose folder would lie
inside the tree is skipped). `include_dirs()` are searched after the library's own folders, so they only
serve names the tree itself does not have.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

_CMAKE_FILES = ("CMakeLists.txt", "*.cmake")
_CREATE_LINK = re.compile(r"file\(\s*CREATE_LINK\s+(\S+)\s+\S*\$\{INSTALL_LIBRARY_DIR\}/(\S+?)\s+SYMBOLIC\s*\)")
_BUILD_COPY = re.compile(r"\bcp\s+(?:-\w+\s+)*\$\{ASCENDC_DIR\}/(\S+)\s+\$\{CMAKE_BINARY_DIR\}/include/(\S+)")
# Where the installed tree's names are searched from: the basic API's installed folder (it holds the
# impl/<arch> links) and the build tree's include folder (ascendc/host_api/...).
INCLUDE_ROOTS = ("install/ascendc/include/basic_api", "build/include")


def _cmake_texts(root: Path):
    for pattern in _CMAKE_FILES:
        for path in sorted(root.rglob(pattern)):
            if "examples" not in path.relative_to(root).parts:
                yield path.read_text(errors="replace")


def _inside(path: Path, folder: Path) -> bool:
    return os.path.realpath(path).startswith(os.path.realpath(folder) + os.sep) or \
        os.path.realpath(path) == os.path.realpath(folder)


def build_farm(root: Path, out: Path) -> None:
    """Write the farm for tree `root` into `out` (a fresh folder)."""
    install = out / "install"
    for kind in ("include", "impl"):
        base = install / "asc" / kind
        base.mkdir(parents=True, exist_ok=True)
        for entry in sorted((root / kind).iterdir()):
            (base / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    texts = list(_cmake_texts(root))
    for text in texts:
        for target, dest in _CREATE_LINK.findall(text):
            link = install / dest
            if link.exists() or link.is_symlink():
                continue
            link.parent.mkdir(parents=True, exist_ok=True)
            if not _inside(link.parent, out):        # its folder is a link into the tree: never write there
                continue
            link.symlink_to(target)
    for text in texts:
        for src, folder in _BUILD_COPY.findall(text):
            source = root / src
            link = out / "build" / "include" / folder / source.name
            if source.exists() and not link.exists():
                link.parent.mkdir(parents=True, exist_ok=True)
                link.symlink_to(source)


MARKER = "complete"      # written last: a folder without it (half built, or emptied by the cache's eviction) is rebuilt


def farm(root: Path, cache: Path) -> Path:
    """The farm for `root` under `cache` (built once; renamed into place whole, so concurrent builders see
    it complete or not at all). Its marker file is what the cache's LRU eviction dates the folder by."""
    if (cache / MARKER).is_file():
        return cache
    if cache.is_dir():              # links without the marker: what an eviction left; a folder of ours
        shutil.rmtree(cache, ignore_errors=True)
    tmp = cache.with_name(f".{cache.name}.{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    build_farm(root, tmp)
    (tmp / MARKER).write_text(f"{root}\n")
    try:
        os.rename(tmp, cache)
    except OSError:                 # another process won the race
        shutil.rmtree(tmp, ignore_errors=True)
    return cache


def include_dirs(farm_dir: Path) -> list[Path]:
    return [farm_dir / r for r in INCLUDE_ROOTS]
