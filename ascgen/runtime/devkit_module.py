"""A Module built for the devkit backend (devkit.py): same analysis, binding and launch as the builtin
backend; a different build, and each kernel's Task entry is a dispatcher that runs every core in its own
copy of the module (runtime/devkit/include/ascgen_devkit/copies.h).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from ascgen import products, resources
from ascgen.errors import CompileError
from ascgen.runtime import build, devkit, host_rewrite, wrapper
from ascgen.runtime.module import KernelInfo, Module, _address, _dlopen, _symbol
from ascgen.source.launches import has_launches


def dispatch_symbol(instance: str) -> str:
    return f"__ascgen_devkit_dispatch_{wrapper.symbol_id(instance)}"


def render(module: Module, instances) -> str:
    digest = hashlib.sha256(module.text.encode()).hexdigest()
    text = wrapper.render(str(module.compile_path) if module.compile_path else None,
                          None if module.compile_path else module.text,
                          module.source, digest, instances, module.is_program,
                          {k.name: k.scope for k in module.info.kernels if k.scope}, module.user_defines)
    lines = [text, '#include "ascgen_devkit/model.h"   // the CPU model\'s definitions, once per module']
    for inst in instances:
        lines.append(f'extern "C" __attribute__((visibility("default"))) void {dispatch_symbol(inst)}(void** a) '
                     f'{{ ::ascgen_devkit::dispatch("{wrapper.entry_symbol(inst)}", a); }}')
    return "\n".join(lines) + "\n"


class DevkitModule(Module):
    backend = "devkit"

    def __init__(self, *args, **kwargs):
        product = kwargs.get("product") if "product" in kwargs else args[3]
        devkit.check_product(products.get(product))
        self._root = devkit.tree()
        # The source analysis preprocesses the user's file too: it must find the generated tiling header.
        kwargs["include_dirs"] = [*kwargs.get("include_dirs", ()), devkit.tiling_dir(self._root)]
        super().__init__(*args, **kwargs)

    def _build(self, instances) -> None:
        # On the command line: the architecture and the backend's macros (the PCH is built with the same);
        # the user's -D macros are #defined inside the wrapper, after the headers, as on the builtin backend.
        self.cmd_defines = {**self.arch_defines, **devkit.defines(self.product)}
        label = Path(self.source).stem
        extra = []
        for s in self.extra_sources:
            s_text = s.read_text(errors="replace")
            path = host_rewrite.compilable_copy(s_text, str(s)) if has_launches(s_text) else s
            digest = hashlib.sha256(s_text.encode()).hexdigest()
            extra.append(build.SourceText(wrapper.prelude_source(str(path), digest, self.user_defines),
                                          f"<ascgen wrapper of {s.name}>"))
        product_defines = dict(self.cmd_defines)
        incs = [*devkit.include_dirs(self._root), resources.include_dir(), *self.include_dirs]
        flags = [*devkit.MODEL_FLAGS, *devkit.pch_flags(self.product, product_defines), *self.extra_flags]
        sources = [build.SourceText(render(self, instances), f"<ascgen wrapper of {Path(self.source).name}>"), *extra]
        so = build.compile_shared(sources, include_dirs=incs, defines=self.cmd_defines, extra_flags=flags,
                                  name=f"{label}-devkit")
        problem = devkit.missing_report(so, lambda: self._relink_cmd(sources, incs, flags))
        if problem:
            raise CompileError(f"{self.source}: {problem}")
        self.so_path = so
        self._lib = _dlopen(so)
        for inst in instances:
            self._register(inst)

    def _relink_cmd(self, sources, incs, flags):
        """The build command again (for naming the callers of missing intrinsics); None for multi-file."""
        if len(sources) != 1:
            return None
        import tempfile
        tmp = Path(tempfile.mkdtemp(prefix="ascgen-devkit-relink-"))
        src = tmp / "wrapper.cpp"
        src.write_text(f'#line 1 "{sources[0].path}"\n{sources[0].text}')
        return [build.find_compiler(), *build.build_flags(incs, self.cmd_defines, flags), "-x", "c++", str(src),
                "-x", "none", "-o", str(tmp / "out.so")]

    def _register(self, instance: str) -> KernelInfo:
        kernel = self.info.kernel(instance)
        import ctypes
        sig = _symbol(self._lib, self.so_path, wrapper.sig_symbol(instance), ctypes.c_char_p)
        entry = _symbol(self._lib, self.so_path, dispatch_symbol(instance))
        kinds = tuple(k for k in sig().decode().split(",") if k)
        info = KernelInfo(instance, kernel, kinds, _address(entry))
        self._kernels[instance] = info
        return info
