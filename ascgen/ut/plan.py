"""The build plan of one UT program: one AddOpTestCase rule for one product, as the repository's build
would compile it (cmake/ut.cmake of ops-nn and ops-math), on ascgen's devkit backend.

* test sources: `<ut dir>/test_<name>*.cpp`, plus `<ut dir>/<target dir>/test_<name>*.cpp` when the
  definition calls `get_target_dir` (its soc -> folder lists are read from cmake/; MULTI_KERNEL_TARGET: only
  those); `<name>` is the op, or the op definition's `opFile.value` for the soc when the definition takes
  the kernel from the op's info (kernel_name) and tests of that name exist;
* the kernel `<op>/op_kernel/<name>.cpp` when it exists (ops-nn compiles it from its build copy,
  `${ASCEND_KERNEL_SRC_DST}/<op>/`; ops-math by glob, which misses experimental/<cat>/<op>: then only when the
  tests call one of its entry points), unless a test source #includes it already, the rule is flagged
  MULTI_KERNEL_TARGET where the definition's flagged branch compiles the tests alone, or the rule's folder
  marks the file HEADER_FILE_ONLY;
* include folders: the definition's `target_include_directories(...)` entries whose variables resolve
  (cmake_variables: sibling source trees through CANN_3RD_LIB_PATH = ASCGEN_CANN_SOURCES):
  `${PROJECT_SOURCE_DIR}` is the repository, `${CMAKE_BINARY_DIR}` a folder in ascgen's cache that replays
  the build's copy rules (`cp -r SRC/* DST`, `cp -r SRC DST`, `copy_directory SRC DST`, and
  kernel_src_copy's `<op>/op_kernel` -> `${ASCEND_KERNEL_SRC_DST}/<op>` for the op and its dependency ops)
  as real folders of linked files; CANN installation folders (`${ASCEND_DIR}`, `${GTEST_INCLUDE}`...) are
  what ascgen itself provides, and, last, the installation's include/ as the sibling source trees' install
  rules lay it out (ascgen/ut/installed.py: metadef's graph/c_types.h...);
* `-include <ut dir>/<op><suffix>` for the hand-written tiling header the definition tests for
  (`_tiling_def.h`, `_tiling.h`), else the header the definition includes for the op's whole category
  (`if(${opCategory} STREQUAL "foreach") ... -include ${foreachTilingFile}`), else the generated `<op>_tiling_data.h` (ascgen.source.op_tiling);
* the macros of the folders around the rule (`add_compile_definitions(DTYPE_X=...)` in the op's
  tests/CMakeLists.txt), then the rule's options (`-DDTYPE_X=float`, `-I...`), `-DUT_SOC_VERSION="Ascend910B1"` (the full soc name,
  "ascend" -> "Ascend", as the definition writes it), `-DKERNELUT=1` when the definition adds it, and
  `__CCE_KT_TEST__`, which CANN's `tikicpulib::<soc>` target (linked by both definitions) defines;
  `NO_OPERATOR_IMPL` when no include folder has `graph/operator_reg.h` (OPERATOR_REG);
* the UT helper sources (`tests/ut/op_kernel/data_utils.cpp`...): `<stem>.cpp` of each header `<stem>.h` the
  tests include from the repository's tests/ folders (the build compiles them into a common object);
* gtest's standard main (`testing::InitGoogleTest` + `RUN_ALL_TESTS`), written by ascgen: the repository's
  `test_op_kernel_main.cpp` registers CANN's op implementation space (`op_impl_space_registry_v2.h`),
  which needs CANN's op registry libraries.
"""
from __future__ import annotations

import functools
import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ascgen import config, products, resources
from ascgen.errors import SpecError, UnsupportedProductError
from ascgen.runtime.backends.devkit import host as devkit_host
from ascgen.runtime.build.cache_integrity import writable_root
from ascgen.ut import cmake
from ascgen.ut.installed import installed_include, link_once

KERNEL_SRC_DST = "ASCEND_KERNEL_SRC_DST"
# The graph engine's operator registration header, which metadef's register/op_def.h includes unless
# NO_OPERATOR_IMPL is defined (metadef's own configuration for its opp_registry library, base/host.cmake). It
# is in no public tree; kernel UTs include register/op_def_registry.h through their tiling headers and use
# nothing of it, so without the header they are built in that configuration (ge::Operator declared only).
OPERATOR_REG = Path("graph") / "operator_reg.h"
GTEST_MAIN = """\
// gtest's standard main, written by ascgen ut (docs/ut.md: why not the repository's)
#include <gtest/gtest.h>
#include <cstring>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>

// The program runs inside ascgen's case server, whose executable is the Python interpreter. Tests that find
// their data next to their executable (readlink("/proc/self/exe") + "../../../../<cat>/<op>/...") get
// <working folder>/ut_program: the build puts the executable 4 levels below the repository root, where
// the working folder is. Defined in this module only (hidden), so nothing outside the program sees it.
extern "C" __attribute__((visibility("hidden"))) ssize_t readlink(const char* __restrict path, char* __restrict buf,
                                                         size_t size) noexcept {
    if (std::strcmp(path, "/proc/self/exe") != 0) return syscall(SYS_readlink, path, buf, size);
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) == nullptr) return -1;
    const std::string exe = std::string(cwd) + "/ut_program";
    const size_t n = exe.size() < size ? exe.size() : size;
    std::memcpy(buf, exe.data(), n);
    return static_cast<ssize_t>(n);
}

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
"""


class Unsupported(Exception):
    """The rule needs something ascgen does not have (a product, a generated header): the reason."""


@dataclass
class Plan:
    rule: cmake.Rule
    product: str                        # ascgen product id
    soc: str                            # the soc as the rule names it
    tests: list[Path]
    kernels: list[Path]
    include_dirs: list[Path]
    forced_includes: list[Path]
    defines: dict = field(default_factory=dict)
    flags: list[str] = field(default_factory=list)
    file_maps: list[tuple[Path, Path]] = field(default_factory=list)    # (kernel copy, original op_kernel)

    @property
    def name(self) -> str:
        return f"{self.rule.op}@{self.product}"


def product_of(soc: str, conv: cmake.Convention) -> str:
    try:
        return products.get(conv.full_soc.get(soc.lower(), soc)).id
    except UnsupportedProductError:
        pass
    try:
        return products.get(soc).id
    except UnsupportedProductError as exc:
        raise Unsupported(f"soc {soc!r} is not a product ascgen emulates ({str(exc).split('.')[0]})") from None


TREE_LAYOUT = 3                         # of the folder _ut_tree writes: a new layout, a new folder
BINARY_DIR = "\x01BINARY\x01"          # stands for the build folder until it is known


# The folder of third-party source trees the CANN repositories' builds are configured with (the top
# CMakeLists.txt: `set(CANN_3RD_LIB_PATH ${PROJECT_SOURCE_DIR}/third_party CACHE STRING ...)`); their
# cmake/third_party/*.cmake look there for `opbase`, `ops-tensor`... by repository name, which is what
# ASCGEN_CANN_SOURCES holds, so ascgen configures it as `-DCANN_3RD_LIB_PATH=$ASCGEN_CANN_SOURCES`.
THIRD_PARTY_PATH = "CANN_3RD_LIB_PATH"
PASSES = 4                              # cmake/ files read in name order until no variable changes


@functools.lru_cache(maxsize=16)
def _root_variables(root: Path, sources: Path | None) -> tuple:
    given = {"PROJECT_SOURCE_DIR": str(root), "CMAKE_SOURCE_DIR": str(root), "CMAKE_BINARY_DIR": BINARY_DIR}
    if sources is not None:
        given[THIRD_PARTY_PATH] = str(sources)
    files = [root / "CMakeLists.txt", *sorted((root / "cmake").rglob("*.cmake"))]
    texts = [cmake.strip_comments(p.read_text(errors="replace")) for p in files if p.is_file()]
    variables = dict(given, CMAKE_CURRENT_SOURCE_DIR=str(root))     # for the top CMakeLists.txt
    # The real build reads them in include() / find_package() order; reading them again until nothing
    # changes lets a file use what a later-named one defines (FindOPBASE.cmake needs third_party/opbase.cmake).
    for _ in range(PASSES):
        before = dict(variables)
        for text in texts:
            variables = cmake.set_variables(text, variables)
            variables.update(given)
        if variables == before:
            break
    return tuple(variables.items())


def cmake_variables(root: Path, binary_dir: Path) -> dict:
    """The `set()` variables of cmake/*.cmake and the top CMakeLists.txt, with the build folder given."""
    return {k: v.replace(BINARY_DIR, str(binary_dir)) for k, v in _root_variables(root, config.cann_sources())}


@functools.lru_cache(maxsize=16)
def _definition_text(root: Path) -> str:
    functions = cmake._functions(root)
    signature, body, _ = functions[cmake.RULE_NAME]
    called = {n for n in re.findall(r"\b(\w+)\s*\(", body) if n in functions and n != cmake.RULE_NAME}
    return body + "".join(functions[n][1] for n in sorted(called))


def target_dir(root: Path, soc: str) -> str:
    """get_target_dir's folder for a soc ("arch35" for ascend950pr_9599), "" when the definition has none."""
    if "get_target_dir" not in _definition_text(root):
        return ""
    keys, values = _target_lists(root)
    soc = soc.lower()
    return values[keys.index(soc)] if soc in keys and keys.index(soc) < len(values) else ""


def target_socs(root: Path, folder: str) -> list[str]:
    """The socs get_target_dir maps to a folder ("arch35" -> ascend950pr_9599...), whoever calls it."""
    keys, values = _target_lists(root)
    return [k for k, v in zip(keys, values) if v == folder]


def _target_lists(root: Path) -> tuple[list[str], list[str]]:
    """get_target_dir's (socs, folders) lists in cmake/, empty when the repository has no such function."""
    functions = cmake._functions(root)
    if "get_target_dir" not in functions:
        return [], []
    lists = [cmake.arguments(raw, {})[1:] for _, raw in cmake.calls(functions["get_target_dir"][1], "set")][:2]
    return (lists[0], lists[1]) if len(lists) == 2 else ([], [])


def _resolved(text: str, variables: dict) -> str | None:
    out = cmake._VAR.sub(lambda m: variables.get(m.group(1), "\0"), text)
    return None if "\0" in out or "$<" in out or "$ENV" in out else out


def _ut_tree(rule: cmake.Rule, definition: str, variables: dict, binary_dir: Path) -> None:
    """Replay the build's copy rules under `binary_dir`, and the repository's top level beside it (_tree_folder)
    (idempotent; only folders and links are written)."""
    for entry in sorted(Path(rule.repository).iterdir()):
        if entry.name != binary_dir.name:
            link_once(binary_dir.parent / entry.name, Path(os.path.abspath(entry)))
    dst = Path(variables.get(KERNEL_SRC_DST, str(binary_dir / "tbe" / "ascendc")))
    pairs = []
    for op in (rule.op, *copied_dependencies(rule)):
        kernel = rule.op_dir.parent / op / "op_kernel"
        if kernel.is_dir():
            pairs.append((kernel, dst / op))
    for m in re.finditer(r"\bcp\s+-r\s+(?!\{\})([^\s\"]+)\s+([^\s)\"]+)", definition):
        src, to = _resolved(m.group(1), variables), _resolved(m.group(2), variables)
        folder = src[:-2] if src and src.endswith("/*") else src
        if not (folder and to and Path(folder).is_dir()):
            continue
        if folder != src:               # cp -r SRC/* DST: SRC's entries into DST
            pairs += [(entry, Path(to) / entry.name) for entry in sorted(Path(folder).iterdir())]
        else:                           # cp -r SRC DST, DST made before: DST/<name of SRC>
            pairs.append((Path(folder), Path(to) / Path(folder).name))
    for m in re.finditer(r"-E\s+copy_directory\s+(\S+)\s+([^\s)]+)", definition):
        src, to = _resolved(m.group(1), variables), _resolved(m.group(2), variables)
        if src and to and Path(src).is_dir():
            pairs.append((Path(src), Path(to)))
    for target, link in pairs:
        if str(link).startswith(str(binary_dir)):
            _mirror(target, link)


def _stage(rule: cmake.Rule, variables: dict, binary_dir: Path) -> None:
    """Replay what the rule's CMakeLists.txt lays out when configured (cmake.staged_links: its staging folders
    and links) in the rule's build folder under `binary_dir`, and name that folder CMAKE_CURRENT_BINARY_DIR, so
    its options (`-I${KERNEL_STAGING_DIR}/op_kernel`) resolve there. Nothing outside `binary_dir` is written."""
    rule_file = Path(rule.where.rsplit(":", 1)[0])
    # Paths as given, not resolved: an op copy links its folders to the original tree (tests/op_copies.py),
    # and ascgen.ops names a rule file its op may not have (ops/kernel.py).
    folder, root = Path(os.path.abspath(rule_file.parent)), Path(os.path.abspath(rule.repository))
    here = binary_dir / "rules" / (folder.relative_to(root) if folder.is_relative_to(root) else Path(rule.op))
    variables["CMAKE_CURRENT_BINARY_DIR"] = str(here)
    if not rule_file.is_file():
        return
    text = cmake.strip_comments(rule_file.read_text(errors="replace"))
    local = cmake.set_variables(text, {**variables, "CMAKE_CURRENT_SOURCE_DIR": str(rule_file.parent),
                                       "PROJECT_SOURCE_DIR": str(rule.repository), "CMAKE_COMMAND": "cmake"})
    folders, links = cmake.staged_links(text, local)
    for folder in (Path(os.path.normpath(f)) for f in folders):
        if folder.is_relative_to(binary_dir):
            folder.mkdir(parents=True, exist_ok=True)
    for link, target in links:
        link_path = Path(os.path.normpath(link))
        if link_path.is_relative_to(binary_dir) and Path(target).exists():
            link_once(link_path, Path(target))


def _mirror(target: Path, link: Path) -> None:
    """`target` copied to `link` as the build's copy makes it, but with real folders and linked files: a
    header's `#include "../inc/x.h"` then resolves inside the copy (a linked folder's `..` would be the
    original's parent, which lacks the copied neighbours)."""
    if not target.is_dir():
        link_once(link, target)
        return
    if os.path.islink(link):
        return                          # a file link already stands here: the copies overlap, first one kept
    link.mkdir(parents=True, exist_ok=True)
    for entry in sorted(target.iterdir()):
        _mirror(entry, link / entry.name)


def copied_dependencies(rule: cmake.Rule) -> tuple[str, ...]:
    """The ops whose kernels the copy tree holds beside the rule's op: the rule's dependency ops, the op's own
    add_modules_sources DEPENDENCIES and, in turn, theirs. The repository's copy rule copies a rule's own
    dependencies only, into one folder every op of a whole-repository build shares, where the op build has
    copied each op's DEPENDENCIES too: ops-nn layer_norm's kernel reaches `../../norm_common/` through its
    dependency layer_norm_v3, ops-math tril's `../triu/` through its own `DEPENDENCIES triu`. A copy tree per
    rule has what that shared folder gives it only with all of them."""
    found = list(dict.fromkeys([*rule.deps, *(d for d in cmake.op_dependencies(rule.op_dir) if d != rule.op)]))
    for name in found:                  # grows while walked: breadth first, each op once
        found += [d for d in cmake.op_dependencies(rule.op_dir.parent / name) if d not in found and d != rule.op]
    return tuple(found)


def _tree_folder(rule: cmake.Rule) -> Path:
    """The rule's build folder, `build/` inside a folder that mirrors the repository's top level. The
    repositories' build.sh configures in `<repository>/build` (`BUILD_PATH="${BASE_PATH}/build"`), and a
    copied kernel's header may climb out of the build folder on purpose: ops-nn fused_add_rms_norm's
    `#include "../../../../norm/rms_norm/op_kernel/rms_norm_base.h"`, compiled from
    `build/tbe/ascendc/fused_add_rms_norm/`, reaches `<repository>/norm/`."""
    deps = ",".join(copied_dependencies(rule))
    key = hashlib.sha256(f"{TREE_LAYOUT}|{rule.repository}|{rule.op}|{deps}".encode()).hexdigest()[:16]
    return writable_root(config.cache_dir()) / "ut" / "tree" / f"{rule.op}-{key}" / "build"


def main_source() -> Path:
    """gtest's main, in the cache (a stable path, so the build is cached)."""
    return cached_text("main", "ascgen_ut_main.cpp", GTEST_MAIN)


def test_sources(rule: cmake.Rule, soc: str) -> list[Path]:
    """The rule's test sources for a soc (also for reporting the cases of a rule that cannot be planned)."""
    try:
        product = product_of(soc, cmake.convention(rule.repository))
    except Unsupported:
        return _tests(rule, target_dir(rule.repository, soc), rule.op)
    return _named_tests(rule, soc, product)[1]


def _named_tests(rule: cmake.Rule, soc: str, product: str) -> tuple[str, list[Path]]:
    """(kernel stem, test sources). The definition names both after the op's opFile when the build folder
    already holds the ops info (made by a first build), after the op otherwise (a fresh configure): the
    opFile reading is taken when it finds test sources, else the fresh one."""
    target = target_dir(rule.repository, soc)
    name = kernel_name(rule, product)
    tests = _tests(rule, target, name) if name != rule.op else []
    return (name, tests) if tests else (rule.op, _tests(rule, target, rule.op))


def _tests(rule: cmake.Rule, target: str, name: str) -> list[Path]:
    pattern = f"test_{name}*.cpp"
    folders = [rule.ut_dir / target] if (target and rule.multi_kernel) else \
        [rule.ut_dir, *([rule.ut_dir / target] if target else [])]
    return sorted(p for folder in folders if folder.is_dir() for p in folder.glob(pattern) if p.is_file())


_OP_ADD = re.compile(r"\bOP_ADD\s*\(\s*(\w+)\s*\)")
_OP_FILE = re.compile(r'\.\s*ExtendCfgInfo\s*\(\s*"opFile\.value"\s*,\s*"(\w+)"\s*\)')


def kernel_name(rule: cmake.Rule, product: str) -> str:
    """The kernel file's stem for a product: the op's `opFile.value` for that soc when the definition takes
    it from the op's info (ops-nn: `get_opfile_from_opsinfo.py` reads it from the ops info made from the op
    definition's `config.ExtendCfgInfo("opFile.value", "sigmoid_apt")` ... `AddConfig("ascend950", config)`;
    the kernel is then `<name>.cpp` and the tests `test_<name>*.cpp`), else the op name."""
    if not cmake.convention(rule.repository).kernel_from_op_info:
        return rule.op
    return op_file(rule.op_dir, rule.op, product) or rule.op


def op_file(op_dir: Path, op: str, product: str) -> str | None:
    """The `opFile.value` the op's definition gives for a product's AICore config, None when it gives none."""
    from ascgen.source.signature import strip_comments      # C++ comments (ascgen/source)
    op_type = op.replace("_", "").lower()
    for path in sorted((op_dir / "op_host").rglob("*.cpp")):
        text = path.read_text(errors="replace")
        code = strip_comments(text)     # same offsets: comments and string insides blanked
        if not any(t.lower() == op_type for t in _OP_ADD.findall(code)):
            continue
        for m in _OP_FILE.finditer(text):
            if code[m.start()] != ".":
                continue                # in a comment
            statement = code[max(code.rfind(c, 0, m.start()) for c in ";{}") + 1:m.start()]
            config = re.match(r"\s*(\w+)\s*\.", statement)
            if not config:
                continue
            for soc in re.findall(rf'\bAddConfig\s*\(\s*"(\w+)"\s*,\s*{config.group(1)}\s*\)', text):
                try:
                    if products.get(soc).id == product:
                        return m.group(1)
                except UnsupportedProductError:
                    continue
    return None


def _includes_kernel(tests: list[Path], kernel: Path) -> bool:
    name = re.escape(kernel.name)
    return any(re.search(rf'#\s*include\s*[<"][^">]*\b{name}[">]', t.read_text(errors="replace")) for t in tests)


def _built_by_definition(rule: cmake.Rule, conv: cmake.Convention, kernel: Path) -> bool:
    """Whether the definition compiles the op's kernel file: always when it names the file itself (ops-nn: its
    build copy), else when its glob finds it. A glob's `*` does not cross folders, so ops-math's
    `${PROJECT_SOURCE_DIR}/*/${MODULE_OP_NAME}/op_kernel/${MODULE_OP_NAME}.cpp` misses experimental/<cat>/<op>."""
    if not conv.kernel_glob:
        return True
    names = {"PROJECT_SOURCE_DIR": str(rule.repository), "CMAKE_SOURCE_DIR": str(rule.repository),
             "MODULE_OP_NAME": rule.op, "opName": rule.op}
    pattern = _resolved(conv.kernel_glob, names)
    if pattern is None or not pattern.startswith(str(rule.repository)):
        return True                     # a pattern ascgen cannot evaluate: as if found
    relative = pattern[len(str(rule.repository)):].lstrip("/")
    return any(p.resolve() == kernel.resolve() for p in rule.repository.glob(relative))


def _tests_call_kernel(tests: list[Path], kernel: Path) -> bool:
    """Whether the tests call an entry point of the kernel file (`extern "C" ... void sign(...)` and
    `ICPU_RUN_KF(sign, ...)`): such a program does not link without it, so ascgen compiles the file even where
    the definition's glob misses it (ops-math experimental/math/sign). Tests that instantiate the kernel's
    classes themselves (arange: its own wrappers around `arange.h`) get no kernel file, as in the build; it
    reads `DTYPE_START`, which no rule defines."""
    from ascgen.source.signature import find_kernels      # the kernels a source defines (ascgen/source)
    names = [k.name for k in find_kernels(kernel.read_text(errors="replace"))]
    text = "\n".join(t.read_text(errors="replace") for t in tests)
    return any(re.search(rf"\b{re.escape(n)}\s*[(,]", text) for n in names)


def category_header(rule: cmake.Rule, variables: dict) -> Path | None:
    """The header the definition force-includes for a whole category (ops-nn: `if(${opCategory} STREQUAL
    "foreach") set(compileOptions -include ${foreachTilingFile})`, the variable set in the definition)."""
    definition = _definition_text(rule.repository)
    for m in re.finditer(r'if\s*\(\s*"?\$\{opCategory\}"?\s+STREQUAL\s+"(\w+)"\s*\)\s*'
                         r'set\s*\(\s*\w+\s+-include\s+"?\$\{(\w+)\}"?\s*\)', definition):
        if m.group(1) != rule.category:
            continue
        local = cmake.set_variables(definition, variables)
        path = _resolved(local.get(m.group(2), ""), local)
        if path and Path(path).is_file():
            return Path(path)
    return None


def tiling_header(rule: cmake.Rule, conv: cmake.Convention, product: str, variables: dict) -> Path:
    for suffix in conv.tiling_headers:
        candidate = rule.ut_dir / f"{rule.op}{suffix}"
        if candidate.is_file():
            return candidate
    shared = category_header(rule, variables)
    if shared:
        return shared
    from ascgen.source import op_tiling     # the generator of <op>_tiling_data.h (ascgen/source)
    devkit = config.asc_devkit()
    if devkit is None:
        raise Unsupported(f"needs the generated tiling header {rule.op}_tiling_data.h, which is written with "
                          f"the library's tiling classes: {config.ASC_DEVKIT_HINT}")
    try:
        deps = [rule.op_dir.parent / op for op in rule.deps]      # the dependency ops' folders, as _ut_tree
        text = op_tiling.kernel_tiling_header(rule.op_dir, asc_devkit=devkit, search_dirs=(rule.repository,),
                                              dependency_ops=[d for d in deps if d.is_dir()], keys=rule.tiling_keys,
                                              skip_dirs=cmake.other_tiling_dirs(rule.op_dir, product))
    except SpecError as exc:              # OpTilingError names the op_host file:line
        raise Unsupported(f"the generated tiling header {rule.op}_tiling_data.h: {exc}") from None
    return cached_text(f"tiling/{rule.op}", f"{rule.op}_tiling_data.h", text)


def cached_text(kind: str, name: str, text: str) -> Path:
    """`text` as a file in the cache, at a path named by its content (so the builds that include it cache)."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    folder = writable_root(config.cache_dir()) / "ut" / kind / digest
    path = folder / name
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{name}-{os.getpid()}.tmp"
        tmp.write_text(text)
        os.replace(tmp, path)
    return path


_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)

# metadef's tiling-data registry (optiling::CTilingDataClassFactory, TilingDef), public, which CANN's UT build
# links from its installation; and ascgen's CheckLogLevel / DlogRecord for the closed dlog.
TILING_REGISTRY = Path("base") / "asc" / "tilingdata_base_impl.cc"
OPS_LOG = Path("src") / "ops_log.cpp"


def host_layer(tests: list[Path]) -> tuple[list[Path], list[Path]]:
    """(include folders, sources) a kernel UT needs when its tests include an op's op_host header (its tiling
    class: register/tilingdata_base.h, opbase's log/log.h -> base/err_msg.h, platform/...): what a CANN
    installation's host side gives the build. ascgen's stand-ins for the closed headers (those of its host
    builds), the library's platform headers, metadef's package headers, and the sources that define what
    those headers declare. ([], []) when no test includes an op_host header or a tree is missing."""
    reaches = any("op_host/" in name for test in tests for name in _INCLUDE.findall(test.read_text(errors="replace")))
    metadef, devkit = config.cann_repository("metadef"), config.asc_devkit()
    if not reaches or metadef is None or devkit is None or not (metadef / TILING_REGISTRY).is_file():
        return [], []
    dirs = [resources.ops_host_dir() / "include", devkit_host.include_dir(), devkit / "include" / "utils" / "tiling",
            metadef / "pkg_inc", metadef / "inc" / "external"]
    return [d for d in dirs if d.is_dir()], [_host_source(metadef / TILING_REGISTRY), resources.ops_host_dir() / OPS_LOG]


def _host_source(source: Path) -> Path:
    """A host source compiled into a devkit program, whose every source sees the library's headers: on dav_3510
    they declare a global `printf` template beside C's, so the source's own printf calls are made C's (a
    function-like macro: `format(printf, 3, 4)` attributes keep the name)."""
    text = (f"// ascgen ut: {source.name}, a host source of a kernel UT program (ut/plan.py, host_layer)\n"
            f"#include <cstdio>\n#define printf(...) std::printf(__VA_ARGS__)\n#include \"{source}\"\n#undef printf\n")
    return cached_text("host", source.name, text)


def helper_sources(sources: list[Path], folders: list[Path], tests_root: list[Path]) -> list[Path]:
    """The repository's UT helper sources a program needs: `<stem>.cpp` next to a header `<stem>.h` in the UT
    folders that the sources include, directly or through the test headers (headers under `tests_root`,
    followed; tests/ut/op_kernel/data_utils.cpp for data_utils.h). Sources defining main() are never taken."""
    found, todo, seen = [], list(sources), set(sources)
    while todo:
        current = todo.pop()
        for name in _INCLUDE.findall(current.read_text(errors="replace")):
            headers = [h for h in ((f / name).resolve() for f in (current.parent, *folders)) if h.is_file()]
            if not headers:
                continue
            header = headers[0]                 # the one the compiler opens: followed for its own includes
            if header not in seen and any(header.is_relative_to(t) for t in tests_root):
                seen.add(header)
                todo.append(header)
            # The build links the UT folders' helper objects whatever header declared them: an op's own
            # data_utils.h (ops-nn dequant_swiglu_quant) declares what tests/ut/op_kernel/data_utils.cpp defines.
            cpp = next((c for c in (h.with_suffix(".cpp") for h in headers if h.parent in folders) if c.is_file()),
                       None)
            if cpp is not None and cpp not in found and cpp not in sources \
                    and not re.search(r"\bmain\s*\(", cpp.read_text(errors="replace")):
                found.append(cpp)
                todo.append(cpp)
    return found


def compiled_kernel(rule: cmake.Rule, conv: cmake.Convention, variables: dict, kernel: Path) -> Path:
    """The file the build compiles for the op's kernel file `kernel`. A definition that names the file itself
    (ops-nn: `${ASCEND_KERNEL_SRC_DST}/${opName}/<name>.cpp`) compiles the copy kernel_src_copy made, so
    a header's relative include resolves among the copied neighbours: ops-nn batch_norm's
    `arch35/batch_norm_base.h` includes `../../norm_common/reduce_common_regbase.h`, which only the copy tree
    (its dependency op beside it) has. A definition that globs the kernel (ops-math) compiles the original."""
    if conv.kernel_glob:
        return kernel
    copy = Path(variables[KERNEL_SRC_DST]) / rule.op / kernel.relative_to(rule.op_dir / "op_kernel")
    return copy if copy.is_file() else kernel


def copy_maps(rule: cmake.Rule, variables: dict) -> list[tuple[Path, Path]]:
    """(copy, original) of the op's and its dependency ops' op_kernel in the copy tree: the reports of a
    kernel compiled from the copy name the original files (-ffile-prefix-map)."""
    dst = Path(variables[KERNEL_SRC_DST])
    return [(dst / op, rule.op_dir.parent / op / "op_kernel") for op in (rule.op, *copied_dependencies(rule))
            if (dst / op).is_dir() and (rule.op_dir.parent / op / "op_kernel").is_dir()]


def kernel_include_path(rule: cmake.Rule) -> tuple[dict, list[Path]]:
    """(the CMake variables, the include folders) an op's kernel compiles with: the build's copy rules
    replayed in the cache (the op's and its dependency ops' op_kernel as `${ASCEND_KERNEL_SRC_DST}/<op>`,
    the repository's common kernel folders) and the folders of the definition's
    `target_include_directories(... tests/ut/op_kernel ...)` whose variables resolve."""
    binary_dir = _tree_folder(rule)
    variables = cmake_variables(rule.repository, binary_dir)
    definition = _definition_text(rule.repository)
    dst = variables.setdefault(KERNEL_SRC_DST, str(binary_dir / "tbe" / "ascendc"))
    variables.update({"opName": rule.op, "MODULE_OP_NAME": rule.op, "kernel_dependency_files": f"{dst}/{rule.op}",
                      "CMAKE_CURRENT_SOURCE_DIR": str(rule.ut_dir)})
    _ut_tree(rule, definition, variables, binary_dir)
    _stage(rule, variables, binary_dir)
    include_dirs: list[Path] = []
    for _, raw in cmake.calls(definition, "target_include_directories"):
        if "tests/ut/op_kernel" not in raw:
            continue
        for word in cmake.arguments(raw, {})[1:]:
            resolved = _resolved(word, variables)
            for folder in (resolved or "").split(";"):      # a list variable: ${OPBASE_INC_DIRS}
                if folder and Path(folder).is_dir() and Path(os.path.normpath(folder)) not in include_dirs:
                    include_dirs.append(Path(os.path.normpath(folder)))
        break
    return variables, include_dirs


def plan(rule: cmake.Rule, soc: str, conv: cmake.Convention) -> Plan:
    """The plan for one soc of a rule. Raises Unsupported (a named missing piece) or SpecError."""
    product = product_of(soc, conv)
    target = target_dir(rule.repository, soc)
    name, tests = _named_tests(rule, soc, product)
    if not tests:
        where = f"{rule.ut_dir}" + (f" or {rule.ut_dir / target}" if target else "")
        raise SpecError(f"{rule.where}: no test_{name}*.cpp in {where}")
    variables, include_dirs = kernel_include_path(rule)
    # the kernel the op's add_kernel_sources names for the product, else the one named like its tests
    kernel = cmake.declared_kernel(rule.op_dir, product) or rule.op_dir / "op_kernel" / f"{name}.cpp"
    compiled = compiled_kernel(rule, conv, variables, kernel)
    kernels = [compiled] if kernel.is_file() and not _includes_kernel(tests, kernel) and \
        (rule.multi_kernel is False or conv.multi_kernel_compiles_kernel) and \
        compiled.resolve() not in cmake.header_only_sources(rule, variables) and \
        (_built_by_definition(rule, conv, kernel) or _tests_call_kernel(tests, kernel)) else []
    defines, flags = cmake.directory_definitions(rule, variables), []
    for option in rule.options:         # after the folders' macros, as the build's command line has them
        if option.startswith("-D"):
            name, eq, value = option[2:].partition("=")
            defines[name] = value if eq else None
        elif option.startswith("-I"):
            resolved = _resolved(option[2:], variables)
            if resolved and Path(resolved).is_dir():
                include_dirs.append(Path(resolved))
        elif option:
            flags.append(option)
    installed = installed_include()     # the installation's include/, last: only what nothing else supplies
    if installed is not None:
        include_dirs.append(installed)
    host_dirs, host_sources = host_layer(tests)       # after it: an installed header wins over a stand-in
    include_dirs += [d for d in host_dirs if d not in include_dirs]
    if not any((d / OPERATOR_REG).is_file() for d in include_dirs):
        defines.setdefault("NO_OPERATOR_IMPL", None)
    full = conv.full_soc.get(soc.lower(), soc)
    defines.update({"UT_SOC_VERSION": '"' + full.replace("ascend", "Ascend") + '"', "__CCE_KT_TEST__": "1"})
    if conv.kernelut:
        defines["KERNELUT"] = "1"
    forced = [tiling_header(rule, conv, product, variables)]
    ut_folders = [d.resolve() for d in include_dirs if d.is_relative_to(rule.repository / "tests")]
    helpers = helper_sources([*tests, *kernels], ut_folders, [rule.repository.resolve() / "tests",
                                                              rule.op_dir.parent.resolve()])
    return Plan(rule, product, soc, tests, kernels + helpers + host_sources, include_dirs, forced, defines, flags,
                copy_maps(rule, variables))
