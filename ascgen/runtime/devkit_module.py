"""A Module built for the devkit backend (devkit.py): same analysis, binding and launch as the builtin
backend; a different build, and each kernel's Task entry is a dispatcher that runs every core in its own
copy of the module (runtime/devkit/include/ascgen_devkit/copies.h).
"""
from __future__ import annotations

import ctypes
import hashlib
import tempfile
from pathlib import Path

import numpy as np

from ascgen import products, resources
from ascgen.errors import CompileError
from ascgen.runtime import build, devkit, devkit_host, wrapper
from ascgen.runtime.module import KernelInfo, Module, _address, _dlopen, _symbol
from ascgen.source.signature import uses_matmul_object


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


def render(module: Module, instances) -> str:
    digest = hashlib.sha256(module.text.encode()).hexdigest()
    text = wrapper.render(str(module.compile_path) if module.compile_path else None,
                          None if module.compile_path else module.text,
                          module.source, digest, instances, module.is_program,
                          {k.name: k.scope for k in module.info.kernels if k.scope}, module.user_defines)
    lines = [text]
    if uses_matmul_object(module.text):
        # the Matmul API's server notifies both AIVs of a group and each waits for its own flag, so counts
        # remain on the sibling's flag by design (runtime/devkit/include/ascgen_devkit/model.h, enter())
        lines.append("#define ASCGEN_DEVKIT_MATMUL_KFC 1")
    lines += ['#include "ascgen_devkit/model.h"   // the CPU model\'s definitions, once per module',
              f'extern "C" const char __ascgen_devkit_not_user[] = {_c_string(not_user_prefixes(module._root))};']
    for inst in instances:
        # the launch's system workspace is the hidden argument after the kernel's own (DevkitModule._hidden_buffers)
        kernel = module.info.kernel(inst)
        index = len(kernel.params) if kernel and workspace_index(kernel) >= 0 else -1
        lines.append(f'extern "C" __attribute__((visibility("default"))) void {dispatch_symbol(inst)}(void** a) '
                     f'{{ ::ascgen_devkit::dispatch("{wrapper.entry_symbol(inst)}", a, {index}); }}')
    for kernel in module.info.kernels:       # host <<<>>> launches find out by kernel name
        if workspace_index(kernel) >= 0:
            lines.append(f'static const int __ascgen_devkit_ws_{wrapper.symbol_id(kernel.name)} = '
                         f'::ascgen_devkit::register_workspace_kernel("{kernel.name}");')
    return "\n".join(lines) + "\n"


class DevkitModule(Module):
    backend = "devkit"
    _system_workspace_bytes: int | None = None

    def __init__(self, *args, **kwargs):
        product = kwargs.get("product") if "product" in kwargs else args[3]
        devkit.check_product(products.get(product))
        self._root = devkit.tree()
        # The source analysis preprocesses the user's file too: it must find the generated tiling header,
        # and, for a program using the tiling API or the Matmul API, empty stand-ins of those headers (the
        # build uses the real ones), found first.
        # Last, the tree's include folder: the headers only the library has (c_api/asc_simd.h,
        # tensor_api/tensor.h), which the builtin headers the analysis reads do not stand in for.
        self._analysis_only = [devkit_host.analysis_dir(), self._root / "include", self._root]
        kwargs["include_dirs"] = [*kwargs.get("include_dirs", ()), self._analysis_only[0],
                                  devkit.tiling_dir(self._root), *self._analysis_only[1:]]
        super().__init__(*args, **kwargs)
        devkit.check_matmul_inputs(self.text, Path(str(self.source)).name, self.product)

    def _build(self, instances) -> None:
        self.include_dirs = [d for d in self.include_dirs if d not in self._analysis_only]
        # On the command line: the architecture and the backend's macros (the PCH is built with the same);
        # the user's -D macros are #defined inside the wrapper, after the headers, as on the builtin backend.
        self.cmd_defines = {**self.arch_defines, **devkit.defines(self.product)}
        label = Path(self.source).stem
        extra = self._wrapped_extra_sources()
        product_defines = dict(self.cmd_defines)
        incs = [*devkit.include_dirs(self._root), resources.include_dir(), resources.common_dir(), *self.include_dirs]
        flags = [*devkit.model_flags(), *devkit.pch_flags(self.product, product_defines), *self.extra_flags]
        sources = [build.SourceText(render(self, instances), f"<ascgen wrapper of {Path(self.source).name}>"), *extra]
        libs: list[str] = []
        if devkit_host.needs_host(self._host_texts(extra)):
            # the host program uses the tiling API: the library's tiling sources, built once per product
            incs.append(devkit_host.include_dir())
            host_flags, libs = devkit_host.library(self._root, self.product).link_flags()
            flags += host_flags
        so = build.compile_shared(sources, include_dirs=incs, defines=self.cmd_defines, extra_flags=flags,
                                  link_libs=libs, name=f"{label}-devkit")
        with tempfile.TemporaryDirectory(prefix="ascgen-devkit-relink-") as tmp:
            problem = devkit.missing_report(so, lambda: self._relink_cmd(Path(tmp), sources, incs, flags, libs))
        if problem:
            raise CompileError(f"{self.source}: {problem}")
        self.so_path = so
        self._lib = _dlopen(so)
        for inst in instances:
            self._register(inst)

    def _host_texts(self, extra) -> list[str]:
        """The program's text, its other sources and the headers beside them: where a tiling-API include
        can be."""
        texts = [self.text]
        folders = {Path(self.source).resolve().parent} if Path(str(self.source)).is_file() else set()
        for s in extra:
            if isinstance(s, build.SourceText):
                texts.append(s.text)
            else:
                texts.append(Path(s).read_text(errors="replace"))
                folders.add(Path(s).resolve().parent)
        for folder in folders:
            texts += [h.read_text(errors="replace") for h in sorted(folder.glob("*.h")) if h.is_file()]
        return texts

    def _relink_cmd(self, tmp: Path, sources, incs, flags, libs=()):
        """The build command again, in `tmp` (for naming the callers of missing intrinsics); None for multi-file."""
        if len(sources) != 1:
            return None
        src = tmp / "wrapper.cpp"
        src.write_text(f'#line 1 "{sources[0].path}"\n{sources[0].text}')
        return [build.find_compiler(), *build.build_flags(incs, self.cmd_defines, flags), "-x", "c++", str(src),
                "-x", "none", "-o", str(tmp / "out.so"), *libs]

    def _hidden_buffers(self, info: KernelInfo) -> list:
        """A kernel with a workspace parameter gets a zeroed system workspace per launch (workspace.h), the
        size the C++ side defines."""
        if workspace_index(info.kernel) < 0:
            return []
        if self._system_workspace_bytes is None:     # asked once per module, not per launch
            self._system_workspace_bytes = _symbol(self._lib, self.so_path, "__ascgen_devkit_system_workspace_bytes",
                                                   ctypes.c_uint64)()
        return [("system workspace", np.zeros(self._system_workspace_bytes, dtype=np.uint8))]

    def _register(self, instance: str) -> KernelInfo:
        kernel = self.info.kernel(instance)
        sig = _symbol(self._lib, self.so_path, wrapper.sig_symbol(instance), ctypes.c_char_p)
        entry = _symbol(self._lib, self.so_path, dispatch_symbol(instance))
        kinds = tuple(k for k in sig().decode().split(",") if k)
        info = KernelInfo(instance, kernel, kinds, _address(entry))
        self._kernels[instance] = info
        return info
