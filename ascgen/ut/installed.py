"""The public headers of a CANN installation's `include/` folder, laid out from the sibling source trees' own
install rules.

A kernel UT compiles against an installation: besides the source trees, its include path holds
`${ASCEND_DIR}/...` folders and those of CANN's `tikicpulib::<soc>` target, so a test's
`#include "graph/c_types.h"` is found in `<installation>/include/graph/`. That file comes from a source
tree ascgen has: metadef's cmake/package.cmake says
`install(FILES ${EXTERNAL_GRAPH_FILES} DESTINATION ${CMAKE_SYSTEM_PROCESSOR}-linux/include/graph)` with
`inc/external/graph/c_types.h` in the list. So every `install(FILES ... DESTINATION
[${CMAKE_SYSTEM_PROCESSOR}-linux/]include/<sub>)` of the repositories under ASCGEN_CANN_SOURCES (their top
CMakeLists.txt and cmake/**.cmake, with each file's `set()` lists) is replayed: each file linked at
`<folder>/<sub>/<name>` in ascgen's cache. The folder goes last on the include path, so it only supplies what
nothing else does.

An installation also holds links the CMake rules do not make: the package manifests
(`scripts/package/**/*.xml`, read by CANN's installer) name, for a file installed into a folder, a second path
(`install_softlink`). metadef's `MetadefInc.xml` installs `op_def_registry.h` into
`$(TARGET_ENV)/include/register/asc` with the link `$(TARGET_ENV)/include/register/op_def_registry.h`, the
name kernel UTs include. Every such link into `$(TARGET_ENV)/include/` whose file an install rule provides
is laid out too, as the same file.
"""
from __future__ import annotations

import functools
import hashlib
import os
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from ascgen import config
from ascgen.runtime.build.cache_integrity import writable_root
from ascgen.ut import cmake

_ARCH = "\0arch"        # ${CMAKE_SYSTEM_PROCESSOR}: any machine's
_INCLUDE = re.compile(rf"^(?:{re.escape(_ARCH)}-linux/)?include(?:/(.*))?$")
_MANIFEST_INCLUDE = re.compile(r"^\$\(TARGET_ENV\)/include(?:/(.*?))?/?$")   # a manifest's <arch>-linux/include


def installed_headers(sources: Path) -> dict[str, Path]:
    """`<sub>/<name>` -> source file, for every header the repositories under `sources` install into include/."""
    found: dict[str, Path] = {}
    for repo in sorted(p for p in sources.iterdir() if (p / "cmake").is_dir()):
        files = [repo / "CMakeLists.txt", *sorted((repo / "cmake").rglob("*.cmake"))]
        for path in files:
            if path.is_file():
                found.update({k: v for k, v in _install_rules(repo, path).items() if k not in found})
    for repo in sorted(p for p in sources.iterdir() if (p / "scripts" / "package").is_dir()):
        for manifest in sorted((repo / "scripts" / "package").rglob("*.xml")):
            for link, name in _manifest_links(manifest).items():
                if name in found and link not in found:
                    found[link] = found[name]
    return found


def _manifest_links(manifest: Path) -> dict[str, str]:
    """`<sub>/<link>` -> `<sub>/<name>` for each file a package manifest installs into include/ with a link
    (`install_softlink`) elsewhere in include/."""
    try:
        root = ElementTree.parse(manifest).getroot()
    except ElementTree.ParseError:
        return {}                                 # not a manifest ascgen can read: it adds no name
    links: dict[str, str] = {}
    for group in root.iter("file_info"):
        folder = _MANIFEST_INCLUDE.match(group.get("install_path") or group.get("dst_path") or "")
        if folder is None:
            continue
        for item in group.iter("file"):
            link = _MANIFEST_INCLUDE.match(item.get("install_softlink") or "")
            if link and link.group(1) and item.get("value"):
                links[link.group(1)] = f"{folder.group(1) or ''}/{item.get('value')}".lstrip("/")
    return links


def _install_rules(repo: Path, path: Path) -> dict[str, Path]:
    text = cmake.strip_comments(path.read_text(errors="replace"))
    if "install" not in text.lower():
        return {}
    root = str(repo)
    variables = cmake.set_variables(text, {"CMAKE_CURRENT_SOURCE_DIR": root, "CMAKE_SOURCE_DIR": root,
                                           "PROJECT_SOURCE_DIR": root, "CMAKE_SYSTEM_PROCESSOR": _ARCH})
    found: dict[str, Path] = {}
    for _, raw in cmake.calls(text, "install"):
        args = cmake.arguments(raw, variables)
        if not args or args[0] != "FILES" or "DESTINATION" not in args:
            continue
        at = args.index("DESTINATION")
        m = _INCLUDE.match(args[at + 1]) if at + 1 < len(args) else None
        if not m:
            continue
        sub = m.group(1) or ""
        for item in args[1:at]:
            source = Path(item)
            if source.is_absolute() and source.is_file():
                found.setdefault(f"{sub}/{source.name}".lstrip("/"), source)
    return found


@functools.lru_cache(maxsize=4)
def installed_include(sources: Path | None = None) -> Path | None:
    """A folder laid out as `<installation>/include/` from the install rules (see the module), in the cache;
    None when ASCGEN_CANN_SOURCES is not set or installs no header."""
    sources = sources or config.cann_sources()
    if sources is None or not sources.is_dir():
        return None
    headers = installed_headers(sources)
    if not headers:
        return None
    key = hashlib.sha256("\n".join(f"{k}={v}" for k, v in sorted(headers.items())).encode()).hexdigest()[:16]
    folder = writable_root(config.cache_dir()) / "ut" / "installed" / key
    for name, source in headers.items():
        link_once(folder / name, source)
    return folder


def link_once(link: Path, target: Path) -> None:
    """A symbolic link `link` -> `target` unless `link` exists; another process making it first is fine."""
    if not os.path.lexists(link):
        link.parent.mkdir(parents=True, exist_ok=True)
        try:
            link.symlink_to(target)
        except FileExistsError:
            pass
