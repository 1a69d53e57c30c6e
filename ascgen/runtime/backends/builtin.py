"""The builtin backend: ascgen's own Ascend C library (runtime/include) over the core runtime."""
from __future__ import annotations

import re
from pathlib import Path

from ascgen import resources
from ascgen.runtime import build
from ascgen.runtime.backends.base import Backend, BuildOptions
from ascgen.runtime.build import pch as build_pch
from ascgen.runtime.build import wrapper


# Headers of the advanced API (Matmul, Softmax, ...) and of its tiling: the real library has them, the
# builtin backend's AscendC:: headers do not.
_ADVANCED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]((?:kernel_tiling|lib|adv_api|tiling)/[^>"]+)[>"]', re.M)


def advanced_api_hint(text: str, source: str) -> str:
    """The hint for a builtin-backend build of a source that includes advanced-API headers ("" if none)."""
    found = _ADVANCED_INCLUDE.search(text)
    if not found:
        return ""
    line = text.count("\n", 0, found.start()) + 1
    return (f"Hint: {Path(source).name}:{line} includes {found.group(1)}: the source uses the advanced API: run with "
            "--backend devkit (load(..., backend=\"devkit\")); it needs the asc-devkit tree: ASCGEN_ASC_DEVKIT; "
            "how to get it: docs/devkit.md")


class BuiltinBackend(Backend):
    name = "builtin"
    summary = "ascgen's AscendC:: headers (default)"

    def wrapper_text(self, module, instances) -> str:
        return wrapper.render_module(module, instances)

    def build_options(self, module, extra_sources) -> BuildOptions:
        # Only the architecture macros go on the command line; the user's are #defined inside the wrapper
        # after the emulated headers, so `-D X=5` cannot break them.
        include_dirs = [*resources.include_dirs(), *module.include_dirs]
        flags = [*build.native_flags(), *module.extra_flags]
        # The wrapper's first lines are wrapper.PRELUDE with only these flags' macros defined: precompiled once
        # per product and flag set. The user's -I folders come after the emulated ones, so they cannot change
        # what PRELUDE resolves to; leaving them out lets every source folder share one header.
        # A user's forced include (`ascgen run --include`, a UT's tiling header) is read before the wrapper,
        # so before PRELUDE: its macros can change what the headers define. No precompiled copy then.
        forced = any(f.startswith(("-include", "-imacros")) for f in flags)
        pch = [] if forced else build_pch.include_flags(f"builtin-{module.product.npu_arch}", wrapper.PRELUDE,
                                                        build.build_flags(resources.include_dirs(),
                                                                          module.arch_defines, flags))
        return BuildOptions(include_dirs=include_dirs, defines=module.arch_defines, flags=[*pch, *flags],
                            name=Path(module.source).stem)

    def compile_hint(self, text: str, source: str) -> str:
        return advanced_api_hint(text, source)
