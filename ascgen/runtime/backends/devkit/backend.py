"""The devkit backend's Backend (toolchain.py builds, host.py links the host tiling library): same analysis,
binding and launch as the builtin backend; a different build, and each kernel's entry is a dispatcher that
runs every core in its own copy of the module (runtime/devkit/include/ascgen_devkit/copies.h).
"""
from __future__ import annotations

import ctypes
import re
import tempfile
from pathlib import Path

import numpy as np

from ascgen import products, resources
from ascgen.errors import CompileError, SpecError
from ascgen.runtime import build, geometry
from ascgen.runtime.backends.base import Backend, BuildOptions
from ascgen.runtime.backends.devkit import host as devkit_host
from ascgen.runtime.backends.devkit import toolchain as devkit
from ascgen.runtime.build import wrapper
from ascgen.source.signature import uses_matmul_object

# Module copies per core type: copies.h's slot() gives AIV cores slots 0..255 and AIC cores 256..511, so
# a core past 256 of its type would run in another core's copy (or past the last one).
COPIES_PER_CORE_TYPE = 256
# The header that supplies host_launch.h's and host_trampoline.h's backend hooks (runtime/include/ascgen/
# backend_hooks.h is the builtin's).
HOOKS_HEADER = '"ascgen_devkit/backend_hooks.h"'


def dispatch_symbol(instance: str) -> str:
    return f"__ascgen_devkit_dispatch_{wrapper.symbol_id(instance)}"


def not_user_prefixes(root: Path) -> str:
    """Path prefixes a report never names as the user's line ('\n'-separated, see ascgen_devkit/site.h): the
    library tree, ascgen's runtime and the system headers (pseudo-files such as the wrapper's are skipped too)."""
    return "\n".join([f"{root.resolve()}/", f"{resources.runtime_dir().resolve()}/", "/usr/include/", "/usr/lib/",
                      "/usr/local/include/"])


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def workspace_index(kernel) -> int:
    """The kernel's workspace parameter: the one written `__kfc_workspace__`, else the one named `workspace`;
    -1 if none. A kernel with one gets a system workspace of its own per launch (runtime/devkit/include/
    ascgen_devkit/workspace.h)."""
    params = kernel.params if kernel else ()
    for i, p in enumerate(params):
        if "__kfc_workspace__" in p.ctype:
            return i
    for i, p in enumerate(params):
        if p.name.lower() == "workspace":
            return i
    return -1


def uses_matmul_kfc(module) -> bool:
    """Whether a source of the program registers the Matmul object: the main source, or another source or a
    header one includes (a kernel UT program's kernel is one of its extra sources: ops-nn
    single_layer_lstm_grad). Only a program with other sources pays for reading their includes: every load,
    a cached one too, renders the wrapper."""
    if uses_matmul_object(module.text):
        return True
    return bool(module.extra_sources) and any(uses_matmul_object(t) for t in _host_texts(module, module.extra_sources))


def render(module, root: Path, instances) -> str:
    lines = [wrapper.render_module(module, instances)]
    if uses_matmul_kfc(module):
        # the Matmul API's server notifies both AIVs of a group and each waits for its own flag, so counts
        # remain on the sibling's flag by design (runtime/devkit/include/ascgen_devkit/model.h, enter())
        lines.append("#define ASCGEN_DEVKIT_MATMUL_KFC 1")
    lines += ['#include "ascgen_devkit/model.h"   // the CPU model\'s definitions, once per module',
              f'extern "C" const char __ascgen_devkit_not_user[] = {_c_string(not_user_prefixes(root))};']
    for inst in instances:
        # the launch's system workspace is the hidden argument after the kernel's own (hidden_buffers)
        kernel = module.info.kernel(inst)
        index = len(kernel.params) if kernel and workspace_index(kernel) >= 0 else -1
        lines.append(f'extern "C" __attribute__((visibility("default"))) void {dispatch_symbol(inst)}(void** a) '
                     f'{{ ::ascgen_devkit::dispatch("{wrapper.entry_symbol(inst)}", a, {index}); }}')
    # host <<<>>> launches find out by kernel name (an ICPU_RUN_KF launch always has one: copies.h); a kernel
    # declared in one source and defined in another is listed by both
    kernels = [*module.info.kernels, *(k for info in module.extra_infos for k in info.kernels)]
    for name in dict.fromkeys(k.name for k in kernels if workspace_index(k) >= 0):
        lines.append(f'static const int __ascgen_devkit_ws_{wrapper.symbol_id(name)} = '
                     f'::ascgen_devkit::register_workspace_kernel("{name}");')
    return "\n".join(lines) + "\n"


class DevkitBackend(Backend):
    name = "devkit"
    summary = "the real asc-devkit library on ascgen's CPU model (needs ASCGEN_ASC_DEVKIT; docs/devkit.md)"

    def __init__(self):
        self._root: Path | None = None
        self._system_workspace_bytes: int | None = None

    @property
    def root(self) -> Path:
        if self._root is None:
            self._root = devkit.tree()
        return self._root

    def check_product(self, product) -> None:
        devkit.check_product(products.get(product))

    def analysis_include_dirs(self) -> list[Path]:
        # The source analysis preprocesses the user's file too: it must find the generated tiling header,
        # and, for a program using the tiling API or the Matmul API, empty stand-ins of those headers (the
        # build uses the real ones), found first.
        # Last, the tree's include folder: the headers only the library has (c_api/asc_simd.h,
        # tensor_api/tensor.h), which the builtin headers the analysis reads do not stand in for.
        # Then the build's own folders (the library's, CANN's installed layout), so a library header the
        # builtin ones do not stand in for (kernel_operator_list_tensor_intf.h, kernel_macros.h) is found
        # where the build finds it.
        return [devkit_host.analysis_dir(), devkit.tiling_dir(self.root), self.root / "include", self.root,
                *devkit.include_dirs(self.root)]

    def library_dirs(self) -> list[Path]:
        # Not the tree's root: its examples/ are user sources (the devkit sweep runs them).
        return [devkit.tiling_dir(self.root), self.root / "include", self.root / "impl",
                devkit.installed_layout_dir(self.root)]

    def analysis_defines(self, product) -> dict:
        # The build's macros (ASCENDC_CPU_DEBUG, __NPU_ARCH__...), and __ASCENDC_INCLUDE_INTERNAL_HEADERS__:
        # without it the library's internal headers issue a `#pragma message( \` continued on the next line,
        # on which GCC 12's -fdirectives-only stops with an internal compiler error ("unspellable token
        # PRAGMA_EOL"). The analysis keeps only the user's text, so that branch of the library's is moot.
        build_defines = {k: v for k, v in devkit.defines(products.get(product)).items() if k != "ASCGEN_DEVKIT_STAMP"}
        return {**build_defines, "__ASCENDC_INCLUDE_INTERNAL_HEADERS__": 1}

    def check_source(self, module) -> None:
        devkit.check_matmul_inputs(module.text, Path(str(module.source)).name, module.product)

    def wrapper_text(self, module, instances) -> str:
        return render(module, self.root, instances)

    def build_options(self, module, extra_sources, whole_host: bool = False) -> BuildOptions:
        # On the command line: the architecture and the backend's macros (the PCH is built with the same);
        # the user's -D macros are #defined inside the wrapper, after the headers, as on the builtin backend.
        defines = {**module.arch_defines, **devkit.defines(module.product), "ASCGEN_BACKEND_HOOKS": HOOKS_HEADER}
        incs = [*devkit.include_dirs(self.root), *resources.include_dirs(), *module.include_dirs]
        model = devkit.model_flags()
        # the isolated worker's -g1 is already a model flag: the same flags, so the same cached module
        flags = [*model, *devkit.pch_flags(module.product, defines), *(f for f in module.extra_flags if f not in model)]
        libs: list[str] = []
        fallback = None
        texts = _host_texts(module, extra_sources)
        if devkit_host.needs_host(texts):
            # the host program uses the tiling API: the library's tiling sources it may call (devkit_host.
            # needed_advanced), built once per product; every source if that guess misses (after_link)
            incs.append(devkit_host.include_dir())
            advanced = None if whole_host else devkit_host.needed_advanced(self.root, texts)
            host_flags, libs = devkit_host.library(self.root, module.product, advanced).link_flags()
            flags += host_flags
            if not whole_host:
                fallback = lambda: self.build_options(module, extra_sources, whole_host=True)   # noqa: E731
        return BuildOptions(include_dirs=incs, defines=defines, flags=flags, link_libs=libs,
                            name=f"{Path(module.source).stem}-devkit", fallback=fallback)

    def after_link(self, module, so: Path, sources, options: BuildOptions) -> BuildOptions | None:
        if options.fallback is not None and devkit.not_intrinsics(devkit.undefined_symbols(so)):
            return options.fallback()      # the host library's selection missed a symbol: every source then
        with tempfile.TemporaryDirectory(prefix="ascgen-devkit-relink-") as tmp:
            problem = devkit.missing_report(so, lambda: _relink_cmd(Path(tmp), sources, options))
        if problem:
            raise CompileError(f"{module.source}: {problem}")
        return None

    def entry_symbol(self, instance: str) -> str:
        return dispatch_symbol(instance)

    def hidden_buffers(self, module, info) -> list:
        """A kernel with a workspace parameter gets a zeroed system workspace per launch (workspace.h), the
        size the C++ side defines."""
        if workspace_index(info.kernel) < 0:
            return []
        if self._system_workspace_bytes is None:     # asked once per module, not per launch
            self._system_workspace_bytes = module.symbol("__ascgen_devkit_system_workspace_bytes", ctypes.c_uint64)()
        return [("system workspace", np.zeros(self._system_workspace_bytes, dtype=np.uint8))]

    def check_launch(self, module, kernel_type: str, block_dim: int) -> None:
        aic, aiv = geometry.needs(module.product, kernel_type, block_dim)
        for cores, kind in ((aiv, "AIV"), (aic, "AIC")):
            if cores > COPIES_PER_CORE_TYPE:
                raise SpecError(
                    f"{module.source}: a {kernel_type} launch with block_dim {block_dim} runs {cores} {kind} cores; "
                    f"the devkit backend runs each core in its own module copy and has {COPIES_PER_CORE_TYPE} per "
                    f"core type. Use block_dim <= {block_dim * COPIES_PER_CORE_TYPE // cores} (split the work into "
                    "several launches), or backend='builtin'.")


_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
HOST_SCAN_FILES = 400          # files read while looking for a tiling-API include (a bound, not a guess)


def _host_texts(module, extra) -> list[str]:
    """The program's text, its other sources, the headers beside them, and the files they include by quoted
    name (found beside the including file or on the module's include path), transitively: a kernel UT
    reaches the op_host tiling header (register/tilingdata_base.h) through `#include "../../../op_host/..."`."""
    texts = [module.text]
    folders = {Path(module.source).resolve().parent} if Path(str(module.source)).is_file() else set()
    todo: list[tuple[str, Path | None]] = [(module.text, next(iter(folders), None))]
    for s in extra:
        if isinstance(s, build.SourceText):
            texts.append(s.text)
            todo.append((s.text, None))
        else:
            text = Path(s).read_text(errors="replace")
            texts.append(text)
            folders.add(Path(s).resolve().parent)
            todo.append((text, Path(s).resolve().parent))
    for folder in folders:
        texts += [h.read_text(errors="replace") for h in sorted(folder.glob("*.h")) if h.is_file()]
    seen: set[Path] = set()
    while todo and len(seen) < HOST_SCAN_FILES:
        text, here = todo.pop()
        for name in _QUOTED_INCLUDE.findall(text):
            for base in ([here] if here else []) + list(module.include_dirs):
                path = (Path(base) / name).resolve()
                if path.is_file():
                    if path not in seen:
                        seen.add(path)
                        inner = path.read_text(errors="replace")
                        texts.append(inner)
                        todo.append((inner, path.parent))
                    break
    return texts


def _relink_cmd(tmp: Path, sources, options: BuildOptions):
    """The build command again, in `tmp` (for naming the callers of missing intrinsics); None for multi-file."""
    if len(sources) != 1:
        return None
    src = tmp / "wrapper.cpp"
    src.write_text(f'#line 1 "{sources[0].path}"\n{sources[0].text}')
    return [build.find_compiler(), *build.build_flags(options.include_dirs, options.defines, options.flags),
            "-x", "c++", str(src), "-x", "none", "-o", str(tmp / "out.so"), *options.link_libs]
