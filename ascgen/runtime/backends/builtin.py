"""The builtin backend: ascgen's own Ascend C library (runtime/include) over the core runtime."""
from __future__ import annotations

from pathlib import Path

from ascgen import resources
from ascgen.runtime import build
from ascgen.runtime.backends.base import Backend, BuildOptions
from ascgen.runtime.build import wrapper


class BuiltinBackend(Backend):
    name = "builtin"
    summary = "ascgen's AscendC:: headers (default)"

    def wrapper_text(self, module, instances) -> str:
        return wrapper.render_module(module, instances)

    def build_options(self, module, extra_sources) -> BuildOptions:
        # Only the architecture macros go on the command line; the user's are #defined inside the wrapper
        # after the emulated headers, so `-D X=5` cannot break them.
        return BuildOptions(include_dirs=[*resources.include_dirs(), *module.include_dirs],
                            defines=module.arch_defines, flags=[*build.native_flags(), *module.extra_flags],
                            name=Path(module.source).stem)
