"""`load(source, product, backend=...)`: the one entry point that reads a source and builds its Module."""
from __future__ import annotations

from ascgen.runtime import backends
from ascgen.runtime.module import DEFAULT_PRODUCT, Module, _checked_defines, _read_source
from ascgen.runtime.program import program_flags


def load(source_or_path, product=DEFAULT_PRODUCT, *, defines: dict | None = None, include_dirs=(),
         kernel_type: str | None = None, instances=(), filename: str | None = None,
         backend: str = backends.DEFAULT, forced_includes=()) -> Module:
    """Compile a kernel source (a path, or the text of one) for `product` and return the Module.

    defines: extra -D macros; include_dirs: extra -I folders (the source's own folder is added);
    kernel_type: force "aiv" | "aic" | "mix_1_1" | "mix_1_2" instead of inferring it;
    instances: template instances to compile up front ("add_custom<2048>");
    filename: the name diagnostics and reports use for source text (default "kernel.cpp");
    backend: a name of backends.REGISTRY: "builtin" (default) or "devkit" (the real library; docs/devkit.md);
    forced_includes: headers included ahead of the source, in order (g++ -include), e.g. an operator UT's
    `<op>_tiling_def.h`; they see the `defines`.
    """
    text, name, path = _read_source(source_or_path)
    if path is None and filename:
        name = filename
    flags = program_flags(forced_includes, defines=_checked_defines(defines))
    return Module(text, name, path, product, defines=defines, include_dirs=include_dirs,
                  kernel_type=kernel_type, instances=instances, backend=backend, extra_flags=flags)
