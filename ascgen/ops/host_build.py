"""Build an operator's op_host tiling sources, unchanged, into a program that runs its tiling function.

Two cached pieces, like the devkit backend's host library (ascgen/runtime/backends/devkit/host.py, whose
helpers this reuses):

* the **host runtime**, one static library for all ops and products: the public CANN host pieces, compiled
  where they are (ASCGEN_CANN_SOURCES): metadef's operator registry (IMPL_OP_OPTILING), tiling-data classes
  (BEGIN_TILING_DATA_DEF), context builders and runtime types; opbase's op_host helpers, log and atvoss
  templates; asc-devkit's platform code (platform_ascendc.cpp, over ascgen's fe::PlatFormInfos from the
  product table, runtime/devkit/host), its advanced API's host tiling and host log; and ascgen's stand-ins
  for the closed pieces they include or call (runtime/ops/host: the error manager's macros, dlog, the few
  mmpa calls of the registry, ge::Shape);
* the **runner** of one op: its `op_host/*_tiling*.cpp` (and `op_host/<tiling dir>/` for the product, as
  the op's CMakeLists names it), `op_host/op_tiling/**.cpp`, ascgen's tiling_runner.cpp, linked with the
  host runtime into one executable.

Objects are cached one by one, keyed by flags, the compiler and the source (content for ascgen's own
files, path + mtime + size for the trees'), so a warm build costs stats and hashes. Every folder is named
ops-host-*, which the cache's eviction takes whole (runtime/build/cache.py).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ascgen import config, console, products, resources
from ascgen.errors import CompileError, OpTilingError, SpecError
from ascgen.runtime import build
from ascgen.runtime.build import cache as cache_folder
from ascgen.runtime.build import deps
from ascgen.runtime.backends.devkit import host as devkit_host
from ascgen.runtime.backends.devkit import layout as devkit_layout
from ascgen.runtime.backends.devkit import toolchain as devkit_toolchain
from ascgen.runtime.backends.devkit.host import _digest, _run, _stamp
from ascgen.runtime.product_cxx import soc_table
from ascgen.ut import cmake

# The public pieces, relative to their repository (the lists of metadef's base/host.cmake that a tiling
# function reaches; the registry's plug-in loading (OppSoManager, space registries) is left out: the
# runner links the op's registrations in directly).
METADEF_SOURCES = (
    "base/registry/op_impl_registry.cc", "base/asc/tilingdata_base_impl.cc", "base/any_value.cc",
    "base/runtime/runtime_attrs.cc", "base/runtime/tiling_data.cc", "base/runtime/compute_node_info.cc",
    "base/context_builder/op_tiling_context_builder.cc", "base/context_builder/op_tiling_parse_context_builder.cc",
    "base/context_builder/op_context_builder_impl.cc", "base/context_builder/op_context_builder_base.cc",
    "base/context_builder/context_holder.cc", "base/utils/type_utils_impl.cc", "base/type/ascend_string_impl.cc",
    "base/type/types_impl.cc", "base/context_builder/op_infer_shape_context_builder.cc",
    "base/context_builder/op_infer_datatype_context_builder.cc",
)
OPBASE_SOURCES = ("src/op_common/op_host/util/shape_util.cpp", "src/op_common/op_host/util/math_util.cpp",
                  "src/op_common/op_host/util/fp16.cpp", "src/op_common/op_host/tiling_util.cpp",
                  "src/op_common/log/log.cpp", "src/op_common/op_host/infershape_broadcast_util.cpp",
                  "src/op_common/op_host/infershape_elewise_util.cpp", "src/op_common/op_host/infershape_reduce_util.cpp")
OPBASE_GLOBS = ("src/op_common/atvoss/**/*.cpp",)
# asc-devkit's platform code and host log, and (advanced_api_sources) its advanced API's host tiling
# (GetLayerNormMaxMinTmpSize, the Matmul tiling...): the sources the devkit backend's host library builds.
ASC_DEVKIT_SOURCES = devkit_host.SOURCE_FILES
OWN_SOURCES = ("ops/host/src/ops_log.cpp", "ops/host/src/ge_shape.cpp",           # under runtime/
               "devkit/host/src/platform_infos.cpp")
RUNNER_SOURCE = "ops/host/src/tiling_runner.cpp"
INFERSHAPE_SOURCE = "ops/host/src/infershape_runner.cpp"
ARCHIVE = "libascgen_ops_host.a"
RUNNER = "tiling_runner"
INFERSHAPE_RUNNER = "infershape_runner"
TABLE = "ascgen_soc_table.h"
# NO_OPERATOR_IMPL: metadef's own configuration for building the op definitions (base/host.cmake): its
# register/op_def.h then declares ge::Operator instead of including graph/operator_reg.h, GE's closed graph API.
FLAGS = ("-std=c++17", "-fPIC", build.HOST_CODE_OPTIMISATION, "-g1", "-w", "-DOS_TYPE=0", "-DNO_OPERATOR_IMPL")
REPOSITORIES = ("metadef", "opbase")
# How `framework` sources compile (program()): each function in its own section, hidden (a runner links with
# -rdynamic, which would keep every exported function), so --gc-sections can drop what the program never reaches.
SECTION_FLAGS = ("-ffunction-sections", "-fdata-sections", "-fvisibility=hidden")


def own_dir() -> Path:
    return resources.ops_host_dir()


def _repository(name: str) -> Path:
    found = config.cann_repository(name)
    if found is None or not found.is_dir():
        raise SpecError(f"host tiling needs the public CANN repository {name!r}: set ASCGEN_CANN_SOURCES to the "
                        f"folder holding it beside the operator repositories ({name}/, opbase/, metadef/...)"
                        + (f"; {config.ASC_DEVKIT_HINT}" if name == "asc-devkit" else ""))
    return found


def include_dirs(op_dir: Path | None = None) -> list[Path]:
    """The -I folders, in order: the op's own folders (as its CMake rule adds them: op_host, the category
    above, the repository root and its common/inc), opbase's and metadef's public headers, asc-devkit's
    platform and tiling headers, then ascgen's stand-ins for closed pieces (last: a public header wins)."""
    metadef, opbase, devkit = (_repository(n) for n in ("metadef", "opbase", "asc-devkit"))
    dirs: list[Path] = []
    if op_dir is not None:
        repo = repository_of(op_dir)
        dirs += [op_dir / "op_host", op_dir.parent, repo, repo / "common" / "inc"]
    inc, pkg = opbase / "include", opbase / "pkg_inc"
    dirs += [inc, inc / "op_common", inc / "op_common" / "op_host", inc / "op_common" / "op_graph",
             pkg, pkg / "op_common", pkg / "op_common" / "op_host",
             metadef / "base", metadef, metadef / "inc" / "external", metadef / "inc", metadef / "pkg_inc",
             metadef / "inc" / "external" / "base", metadef / "inc" / "external" / "exe_graph",
             metadef / "inc" / "external" / "asc",          # register/op_def_registry.h (base/host.cmake's path)
             devkit / "include" / "utils" / "tiling", devkit / "include" / "utils" / "tiling" / "platform",
             devkit / "include" / "utils", devkit / "include", devkit / "include" / "adv_api",
             devkit / "impl" / "adv_api", devkit,             # the tiling sources' own includes (as host.py's TREE_DIRS)
             devkit_toolchain.tiling_dir(devkit),             # kernel_tiling/kernel_tiling.h, made by the tree's script
             # CANN's installed header names (ascendc/host_api/tiling/template_argument.h...), as the devkit
             # backend makes them from the tree's own install rules
             *devkit_layout.include_dirs(devkit_toolchain.installed_layout_dir(devkit)),
             own_dir() / "include", resources.common_dir(), devkit_host.include_dir()]
    return dirs


def source_dirs(op_dir: Path) -> list[Path]:
    """The include folders an op's own definitions are found in: its repository's and opbase's (the
    metadef and asc-devkit folders hold the framework, not the op's structs)."""
    opbase = _repository("opbase")
    return [d for d in include_dirs(op_dir)
            if d.resolve().is_relative_to(repository_of(op_dir)) or d.resolve().is_relative_to(opbase.resolve())]


def repository_of(op_dir: Path) -> Path:
    """The operator repository holding op_dir: the nearest folder above it with a cmake/ folder."""
    for parent in op_dir.resolve().parents:
        if (parent / "cmake").is_dir() and (parent / "CMakeLists.txt").is_file():
            return parent
    raise SpecError(f"{op_dir}: not inside an operator repository (no folder above it has cmake/ and "
                    "CMakeLists.txt, as ops-nn and ops-math do)")


@dataclass(frozen=True)
class Runner:
    path: Path          # the executable
    sources: tuple[Path, ...]


def _flags(table_dir: Path, dirs) -> list[str]:
    return [*FLAGS, f"-I{table_dir}", *(f"-I{d}" for d in dirs)]


def _table_dir() -> Path:
    """The product table as C++ (ascgen_soc_table.h), which the platform stand-in loads a SoC from. Every
    SoC is in it; its default SoC (for the devkit backend's libruntime.so, not built here) is the first
    product's, so one header, and one host runtime, serve every product."""
    base = config.cache_dir()
    table = soc_table(products.all()[0])
    folder = base / f"ops-host-table-{_digest(table)}"
    if not (folder / TABLE).is_file():
        folder.mkdir(parents=True, exist_ok=True)
        build.write_atomic(folder / TABLE, table.encode())
    return folder


def _own(path: Path) -> bool:
    return str(path).startswith(str(resources.runtime_dir()))


def _identity(path: Path) -> str:
    """A source's part of its object's key: ascgen's own by content, the trees' by path and stamp."""
    return _digest(path.read_bytes()) if _own(path) else _stamp(path)


def _headers_digest() -> str:
    own = [p for d in (own_dir() / "include", devkit_host.include_dir()) for p in sorted(d.rglob("*.h"))]
    return _digest(*(p.name.encode() + p.read_bytes() for p in own))


def advanced_api_sources() -> list[Path]:
    """asc-devkit's advanced-API host tiling sources: the part of the host runtime few ops call."""
    return devkit_host.advanced_sources(_repository("asc-devkit"))


def runtime_sources(advanced_api=None) -> list[Path]:
    """The host runtime's sources, in archive order; `advanced_api`: which of advanced_api_sources() (all
    of them when None)."""
    metadef, opbase, devkit = (_repository(n) for n in ("metadef", "opbase", "asc-devkit"))
    found = [metadef / s for s in METADEF_SOURCES] + [opbase / s for s in OPBASE_SOURCES]
    found += [p for g in OPBASE_GLOBS for p in sorted(opbase.glob(g))]
    wanted = None if advanced_api is None else set(advanced_api)
    found += [devkit / s for s in ASC_DEVKIT_SOURCES]
    found += [p for p in advanced_api_sources() if wanted is None or p in wanted]
    found += [resources.runtime_dir() / s for s in OWN_SOURCES]
    missing = [str(p) for p in found if not p.is_file()]
    if missing:
        raise SpecError("host tiling: the public CANN trees lack " + ", ".join(missing) +
                        " (a different version of metadef/opbase/asc-devkit?)")
    return found


def _errors_first(out: str) -> str:
    """The compiler's error lines (each with the line after it: the code), ahead of the rest: metadef's
    headers print a deprecation #pragma message note each, which would fill the shown lines."""
    lines = out.splitlines()
    errors = [i for i, line in enumerate(lines) if ": error:" in line or "fatal error:" in line]
    picked = [lines[j] for i in errors for j in (i, i + 1) if j < len(lines)]
    return "\n".join((picked or lines)[:build.DIAGNOSTIC_LINES])


_MISSING = re.compile(r"^(\S+?):(\d+):\d+: fatal error: (\S+): No such file or directory", re.M)
# A standard-library name used unqualified in an op's own source: CANN's installed headers bring some into
# scope (metadef's register/register.h has `using std::map; using std::string;` at global scope), and the
# closed header chain that does so for op_host sources is not among the public trees.
_UNQUALIFIED_STD = re.compile(r"^(\S+?):(\d+):\d+: error: .(map|string|vector|set|pair|unique_ptr|make_shared|"
                              r"to_string|unordered_map). does not name a type", re.M)


def _object(objects_dir: Path, key: str, source: Path) -> tuple[str, Path | None]:
    """(key stem, object) of `source`: the stem covers the flags, the compiler and the source; the object's
    name adds the headers its last compile read as they are now (build/deps.py), so an edit of an op's own
    header (its tiling-data struct, a constant) names another object. None: never compiled here."""
    stem = f"{source.stem}-{_digest(key, source, _identity(source))}"
    files = deps.read(objects_dir / f"{stem}{deps.SUFFIX}")
    return stem, None if files is None else objects_dir / deps.artifact_name(stem, files, ".o")


def _compile_one(objects_dir: Path, stem: str, source: Path, cmd: list[str]) -> tuple[Path | None, str | None]:
    """Compile into temporary names, then record what the compile read and rename the object to its name
    with those headers (concurrent builds of one source write the same names)."""
    tmp = objects_dir / f".{stem}.{os.getpid()}.tmp.o"
    dep_file = tmp.with_suffix(".d")
    try:
        failed = _run((source, [*cmd, *deps.compile_flags(dep_file), "-o", str(tmp)], None))
        if failed is not None:
            return None, failed
        files = deps.recorded([dep_file], leave_out=config.cache_dir())
        obj = objects_dir / deps.artifact_name(stem, files, ".o")
        os.replace(tmp, obj)
        build.write_atomic(objects_dir / f"{stem}{deps.SUFFIX}", deps.as_text(files).encode())
        return obj, None
    finally:
        for leftover in (tmp, dep_file):
            leftover.unlink(missing_ok=True)


def _compile(objects_dir: Path, compiler: str, flags: list[str], key: str, sources, what: str,
             op: str | None = None) -> list[Path]:
    """Objects for `sources`, each compiled once into objects_dir (again when a header it read changed); the
    first failure is a CompileError with the compiler's own diagnostics, or, for an op's sources (`op`) that
    include a header none of the trees has, an OpTilingError naming it: a piece of closed CANN."""
    objects_dir.mkdir(parents=True, exist_ok=True)
    found = [_object(objects_dir, key, s) for s in sources]
    objects: list[Path | None] = [o if o is not None and o.is_file() else None for _, o in found]
    jobs = [(i, s, [compiler, *flags, "-c", "-x", "c++", str(s)])
            for i, (s, o) in enumerate(zip(sources, objects)) if o is None]
    if jobs:
        with console.long_step(what, total=len(jobs), expect=f"{len(jobs)} sources") as step:
            def one(job):
                i, source, cmd = job
                out = _compile_one(objects_dir, found[i][0], source, cmd)
                step.advance()
                return out
            with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
                results = list(pool.map(one, jobs))
        for (i, _, _), (obj, _) in zip(jobs, results):
            objects[i] = obj
        failed = [(job[1], out) for job, (_, out) in zip(jobs, results) if out is not None]
        if failed:
            src, out = failed[0]
            missing = _MISSING.search(out)
            if missing and op is not None:
                raise OpTilingError(f"op {op} needs {missing.group(3)} (included from {missing.group(1)}:"
                                    f"{missing.group(2)}), which the public CANN sources lack (searched: the "
                                    "operator repository, metadef, opbase and asc-devkit under ASCGEN_CANN_SOURCES, "
                                    "and ascgen's stand-ins in runtime/ops/host/include)")
            unqualified = _UNQUALIFIED_STD.search(out)
            if unqualified and op is not None:
                raise OpTilingError(f"op {op} uses std::{unqualified.group(3)} unqualified ({unqualified.group(1)}:"
                                    f"{unqualified.group(2)}): a CANN header brings it into scope (metadef's "
                                    "register/register.h does so with `using std::...`), and none of the public "
                                    "headers this source includes does; the closed header chain that includes it is "
                                    "not among the public CANN sources")
            raise CompileError(f"{what}: {len(failed)} of {len(jobs)} sources failed to compile; the first, {src}:\n"
                               + _errors_first(out))
    return [o for o in objects if o is not None]


def runtime_library(advanced_api=None) -> Path:
    """The host runtime archive (see the module docstring), built once into the cache for every product.
    `advanced_api`: which advanced-API tiling sources it holds (all when None; `runner` links one with
    only those an op calls, see there); every archive's objects are the same cached ones, and the archive's
    folder is named by them, so a header edited in a tree names another archive."""
    compiler = build.find_compiler()
    base = config.cache_dir()
    base.mkdir(parents=True, exist_ok=True)
    flags = _flags(_table_dir(), include_dirs())
    key = _digest(_headers_digest(), build.compiler_identity(compiler), *flags)
    sources = runtime_sources(advanced_api)
    with build._lock(base / f"ops-host-runtime-{_digest(key, *(_identity(s) for s in sources))}.lock"):
        objects = _compile(base / "ops-host-objects", compiler, flags, key, sources,
                           "compiling the CANN host pieces for host tiling (metadef, opbase, asc-devkit platform and tiling)")
        folder = base / f"ops-host-runtime-{_digest(*(o.name for o in objects))}"
        if (folder / ARCHIVE).is_file():
            cache_folder.touch(folder / ARCHIVE)     # a use: LRU eviction keeps what a link is about to read
            return folder / ARCHIVE
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{ARCHIVE}.{os.getpid()}"
        ar = subprocess.run(["ar", "rcs", str(tmp), *map(str, objects)], capture_output=True, text=True)
        if ar.returncode != 0:
            raise CompileError(f"archiving the host tiling runtime failed: {ar.stderr.strip()}")
        os.replace(tmp, folder / ARCHIVE)
    return folder / ARCHIVE


_QUALIFIERS = re.compile(r"^(?:vtable for |typeinfo for |typeinfo name for |VTT for |non-virtual thunk to )+")


def _undefined_names(text: str) -> set[str]:
    """The unqualified names of a failed link's undefined symbols (`ns::Class::Method(args)` -> Method)."""
    names = set()
    for symbol in _UNDEFINED.findall(text):
        symbol = _QUALIFIERS.sub("", symbol).split("(")[0]
        while "<" in symbol:                      # template arguments, innermost first
            stripped = re.sub(r"<[^<>]*>", "", symbol)
            if stripped == symbol:
                break
            symbol = stripped
        names.add(symbol.split("::")[-1].lstrip("~"))
    return {n for n in names if re.fullmatch(r"\w+", n)}


def _link_runner(link) -> tuple[subprocess.CompletedProcess, Path, list[Path] | None]:
    """Link a runner (`link(archive)` runs the linker) against the host runtime, taking of the advanced
    API's ~100 tiling sources only those the op needs: first none; while symbols are undefined, the sources
    that name one of them join the archive (their objects built once into the shared cache, as every
    runtime object is). A link takes an archive member only for a symbol still undefined, and a symbol has
    one strong definition, so the program is the one the whole archive gives (the seven real ops of
    tests/ops link byte-identical runners either way); an op calling none of the advanced API builds none
    of it. When the names run out, the whole archive, unless the advanced API never names what is missing.
    Returns the link's result, the archive it linked and that archive's advanced-API sources (None: all)."""
    candidates = advanced_api_sources()
    texts: dict[Path, str] = {}
    chosen: list[Path] = []
    names: set[str] = set()
    archive = runtime_library(chosen)
    result = link(archive)
    while result.returncode != 0:
        names = _undefined_names(result.stderr + result.stdout)
        if not names:
            break
        pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")
        more = [s for s in candidates if s not in chosen
                and pattern.search(texts.setdefault(s, s.read_text(errors="replace")))]
        if not more:
            break
        chosen += more
        archive = runtime_library(chosen)
        result = link(archive)
    if result.returncode != 0 and len(chosen) < len(candidates) and (not names or _declared_by_advanced_api(names)):
        archive = runtime_library()         # a definition the names did not find (a macro's, say)
        return link(archive), archive, None
    return result, archive, chosen


def _declared_by_advanced_api(names) -> bool:
    """Whether asc-devkit's headers or advanced-API folders name any of `names`: a symbol they never name
    (a closed CANN function, one the op's own sources declare) the advanced API's tiling cannot define for
    the op, so its whole archive need not be built to find that out."""
    devkit = _repository("asc-devkit")
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")
    return any(pattern.search(f.read_text(errors="replace")) for folder in (devkit / "include", devkit / "impl" / "adv_api")
               for f in sorted(folder.rglob("*")) if f.suffix in build.HEADER_SUFFIXES + (".cpp",) and f.is_file())


# ---- the op's sources ------------------------------------------------------------------------------

def supported_units(op_dir: Path) -> list[str]:
    """The compute units the op's CMakeLists builds it for (SUPPORT_COMPUTE_UNIT); empty: every product."""
    return cmake.support_lists(op_dir)[0]


def dependencies(op_dir: Path) -> tuple[str, ...]:
    """The ops the op builds with (ut/cmake.op_dependencies): their kernels' folders beside its kernel, their
    op_host tiling sources in its runner."""
    return cmake.op_dependencies(op_dir)


def op_folder(repository: Path, op_dir: Path, name: str) -> Path | None:
    """A dependency op's folder: the op's sibling of that name, else the repository's category folder holding it."""
    sibling = op_dir.parent / name
    if sibling.is_dir():
        return sibling
    return next((p for p in sorted(repository.glob(f"*/{name}")) if (p / "op_host").is_dir()), None)


def tiling_sources(op_dir: Path, product, with_dependencies: bool = True) -> list[Path]:
    """The op's tiling sources for a product, as its repository's add_modules_sources collects them."""
    host = op_dir / "op_host"
    if not host.is_dir():
        raise OpTilingError(f"{op_dir}: no op_host folder, so no host tiling to build (an operator folder holds "
                            "op_host/ with its *_tiling*.cpp beside op_kernel/)")
    units, dirs = cmake.support_lists(op_dir)
    if units and product.id not in units:
        raise OpTilingError(f"{op_dir.name} does not support {product.id}: its CMakeLists.txt builds it for "
                            f"{', '.join(units)} only (SUPPORT_COMPUTE_UNIT)")
    sources = sorted(host.glob("*_tiling*.cpp"))
    if units and dirs:
        sub = dirs[units.index(product.id)] if len(dirs) == len(units) else None
        if sub:
            sources += sorted((host / sub).glob("*_tiling*.cpp"))
    sources += sorted((host / "op_tiling").rglob("*.cpp"))
    if not sources:
        raise OpTilingError(f"{op_dir}: op_host has no *_tiling*.cpp for {product.id}, so no tiling function")
    if with_dependencies:
        # The repository links every op's tiling into one library; an op's DEPENDENCIES are the ops whose
        # sources it uses (ops-nn swi_glu's tiling derives from swi_glu_grad's GluBaseTiling4RegBase).
        repository = repository_of(op_dir)
        for name in dependencies(op_dir):
            dep = op_folder(repository, op_dir, name)
            if dep is not None and (dep / "op_host").is_dir():
                try:
                    sources += [s for s in tiling_sources(dep, product, with_dependencies=False) if s not in sources]
                except OpTilingError:
                    pass                # the dependency has no tiling for the product: nothing of it to link
    return sources


def runner(op_dir: Path, product) -> Runner:
    """The op's tiling runner for a product, built once into the cache."""
    op_dir = Path(op_dir).resolve()
    return program(op_dir, product, tiling_sources(op_dir, product), RUNNER_SOURCE, RUNNER, "op_host tiling")


def infershape_runner(op_dir: Path, product) -> Runner:
    """The op's InferShape runner (its op_host/*_infershape*.cpp and infershape_runner.cpp), a sibling of the
    tiling runner on the same host runtime: an InferShape source that does not build never stops the tiling."""
    op_dir = Path(op_dir).resolve()
    return program(op_dir, product, infershape_sources(op_dir), INFERSHAPE_SOURCE, INFERSHAPE_RUNNER, "InferShape")


def infershape_sources(op_dir: Path) -> list[Path]:
    """The op's InferShape sources (IMPL_OP_INFERSHAPE): op_host/*_infershape*.cpp, as its repository's
    add_modules_sources collects them; an OpTilingError saying to pass outputs= when there is none."""
    sources = sorted((op_dir / "op_host").glob("*_infershape*.cpp"))
    if not sources:
        raise OpTilingError(f"{op_dir.name} has no InferShape (no op_host/*_infershape*.cpp registering "
                            "IMPL_OP_INFERSHAPE), so its output shapes cannot be inferred: pass "
                            "outputs=[(shape, dtype), ...]")
    return sources


def infershape_sources_exist(op_dir: Path) -> bool:
    return any((Path(op_dir) / "op_host").glob("*_infershape*.cpp"))


def program(op_dir: Path, product, sources: list[Path], main: str, name: str, what: str, *,
             extra_dirs=(), extra_flags=(), libs=(), framework=()) -> Runner:
    """One op's runner program: its sources and ascgen's main `main` linked with the host runtime, in the cache.
    `extra_dirs` / `extra_flags` / `libs`: what a program beyond the runners needs (a tiling UT program: the
    repository's test helper folder, googletest, the UT build's flags; ascgen/ut/host.py); `framework`: public
    sources outside the host runtime it links, compiled once for every op as the main is."""
    compiler = build.find_compiler()
    base = config.cache_dir()
    groups = _by_owner(op_dir, sources)
    flags = {owner: [*_flags(_table_dir(), [*extra_dirs, *include_dirs(owner)]), *extra_flags] for owner in groups}
    keys = {owner: _digest(_headers_digest(), build.compiler_identity(compiler), *f) for owner, f in flags.items()}
    stem = (f"ops-host-{op_dir.name}-{product.id}-"
            f"{_digest(*keys.values(), *libs, *(_identity(s) for s in [*sources, *framework]), main)}")
    with build._lock(base / f"{stem}.lock"):
        # Objects first (a warm call only looks them up): the folder is named by them, so an edited header of
        # the op's names another program; the archive it linked is checked the same way (_linked_archive_is_current).
        objects = [o for owner, owned in groups.items()
                   for o in _compile(base / "ops-host-objects", compiler, flags[owner], keys[owner], owned,
                                     f"compiling the {what} of {owner.name} for {product.id}", op=owner.name)]
        objects += _runner_main(compiler, main, extra_dirs, framework)
        folder = base / f"{stem}-{_digest(*(o.name for o in objects))}"
        exe = folder / name
        if exe.is_file() and _linked_archive_is_current(folder):
            cache_folder.touch(exe)
            return Runner(exe, tuple(sources))
        work = Path(tempfile.mkdtemp(dir=base, prefix=f".{folder.name}-"))
        try:
            # -rdynamic: asc-devkit's host_log.cpp finds CheckLogLevel / DlogRecord with dlsym; without
            # CANN's log library to open, its lookup falls back to the program's own (ops_log.cpp)
            link, archive, advanced_api = _link_runner(lambda archive: build.run_tool(
                [compiler, "-rdynamic", "-o", str(work / name), *map(str, objects), str(archive),
                 *libs, "-ldl", "-lpthread"]))
            if link.returncode != 0:
                raise CompileError(_link_error(op_dir, product, link.stderr or link.stdout, what))
            _record_linked_archive(work, archive, advanced_api)
            if folder.exists():
                shutil.rmtree(folder)
            os.replace(work, folder)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return Runner(exe, tuple(sources))


def _by_owner(op_dir: Path, sources: list[Path]) -> dict[Path, list[Path]]:
    """The sources by the op folder whose include path compiles them: a source of op_dir's or of a dependency
    op's op_host (dependencies()) goes with its own op's folders, as the repository's build compiles every op's
    tiling once, so the object of a dependency's source is the one its own op's program uses; any other
    source (a UT's tests, its helpers) goes with op_dir. An op_host reached through a link (a copy of the op
    whose op_host is its original's) is the original's: the same file, so the same object."""
    repository = repository_of(op_dir)
    folders = [op_dir, *(d for d in (op_folder(repository, op_dir, name) for name in dependencies(op_dir)) if d)]
    groups: dict[Path, list[Path]] = {}
    for source in sources:
        host = next((d / "op_host" for d in folders if source.is_relative_to(d / "op_host")), None)
        owner, real = (op_dir, source) if host is None else (host.resolve().parent, source.resolve())
        groups.setdefault(owner, []).append(real)
    return groups


LINKED = "linked-archive"       # in a program's folder: the host runtime archive it linked


def _record_linked_archive(folder: Path, archive: Path, advanced_api: list[Path] | None) -> None:
    """Write which archive the program linked: its path, then the advanced-API sources it holds (or `all`)."""
    chosen = "all\n" if advanced_api is None else "".join(f"{s}\n" for s in advanced_api)
    (folder / LINKED).write_text(f"{archive}\n{chosen}")


def _linked_archive_is_current(folder: Path) -> bool:
    """Whether the archive the program linked is the one its sources give now (a header edited in metadef,
    opbase or asc-devkit names another archive, and the program must be linked again)."""
    try:
        archive, *chosen = (folder / LINKED).read_text().splitlines()
    except OSError:
        return False
    advanced_api = None if chosen == ["all"] else [Path(s) for s in chosen]
    return str(runtime_library(advanced_api)) == archive


def _runner_main(compiler: str, main: str = RUNNER_SOURCE, extra_dirs=(), framework=()) -> list[Path]:
    """A runner's main (tiling_runner.cpp, infershape_runner.cpp), one object for every op: it includes only the
    framework's headers, so it is compiled with the host runtime's flags (no op's folders on its include path),
    not once per op; so are the `framework` sources, with SECTION_FLAGS, so that a link with --gc-sections
    drops the functions of theirs the program never reaches (and what only they call)."""
    flags = _flags(_table_dir(), [*extra_dirs, *include_dirs()])
    key = _digest(_headers_digest(), build.compiler_identity(compiler), *flags)
    objects = _compile(config.cache_dir() / "ops-host-objects", compiler, flags, key,
                       [resources.runtime_dir() / main], f"compiling the runner main {Path(main).name}")
    if framework:
        sectioned = [*flags, *SECTION_FLAGS]
        objects += _compile(config.cache_dir() / "ops-host-objects", compiler, sectioned,
                            _digest(key, *SECTION_FLAGS), list(framework), "compiling the framework sources")
    return objects


_UNDEFINED = re.compile(r"undefined reference to [`'](.+?)'")


def _link_error(op_dir: Path, product, text: str, what: str = "op_host tiling") -> str:
    """A failed link names the symbols the public sources do not define: a piece of closed CANN, or a
    source of the repository the op's CMake rule adds from elsewhere (its DEPENDENCIES)."""
    names = sorted(set(_UNDEFINED.findall(text)))
    if not names:
        return f"linking the {what} of {op_dir.name} failed:\n" + "\n".join(text.splitlines()[:build.DIAGNOSTIC_LINES])
    return (f"op {op_dir.name} ({product.id}) needs {len(names)} symbol(s) that neither its {what} sources nor "
            f"the public CANN host pieces ascgen builds (metadef, opbase, asc-devkit) define: "
            + "; ".join(names[:12]) + (" ..." if len(names) > 12 else ""))
