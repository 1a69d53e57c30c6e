"""The Backend protocol: everything a Module's build and launch need that depends on the Ascend C library
it is compiled against. Module (module.py) does the rest itself: analysis, wrapper, cache, dlopen, binding,
launch. A backend object belongs to one Module (it may keep per-module state, e.g. a symbol read once).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ascgen.runtime.build import wrapper


@dataclass(frozen=True)
class BuildOptions:
    """One module's complete compile: what build.compile_shared is given besides the sources."""
    include_dirs: list[Path]
    defines: dict                       # on the command line (the user's macros are in the wrapper)
    flags: list[str]
    name: str                           # the cache entry's readable name
    link_libs: list[str] = field(default_factory=list)
    # What gives the options to build with instead when after_link finds this build incomplete (a library
    # linked in part, on a guess of what the program needs, missed a symbol); None: nothing to fall back to.
    fallback: "Callable[[], BuildOptions] | None" = None


class Backend:
    """The defaults are the neutral answers; a backend overrides what it changes."""
    name = ""
    summary = ""                        # one line for `--backend` help

    def check_product(self, product) -> None:
        """Raise UnsupportedProductError when this backend cannot run `product`."""

    def analysis_include_dirs(self) -> list[Path]:
        """Folders the source analysis needs after the user's (stand-ins), which the build does not get."""
        return []

    def library_dirs(self) -> list[Path]:
        """Folders whose headers are the library's: the analysis never reads them as the user's source (a
        kernel's type and its task-sync calls are the user's text, not the declarations the library has)."""
        return []

    def analysis_defines(self, product) -> dict:
        """Macros the build defines for this backend, which the source analysis must see too (the same `#if`
        branches), plus any the analysis alone needs."""
        return {}

    def check_source(self, module) -> None:
        """Refuse, after the analysis, what this backend is known to run wrongly (CompileError at the line)."""

    def wrapper_text(self, module, instances) -> str:
        """The wrapper translation unit for these kernel instances (build/wrapper.py renders the common part)."""
        raise NotImplementedError

    def build_options(self, module, extra_sources) -> BuildOptions:
        raise NotImplementedError

    def compile_hint(self, text: str, source: str) -> str:
        """One line added to a failed analysis or build of `source` that says where to go ("" for none)."""
        return ""

    def after_link(self, module, so: Path, sources, options: BuildOptions) -> BuildOptions | None:
        """Check the linked module: raise CompileError, or return options.fallback() to build it again with."""
        return None

    def entry_symbol(self, instance: str) -> str:
        """The `void(void**)` function a launch enters for a kernel instance."""
        return wrapper.entry_symbol(instance)

    def hidden_buffers(self, module, info) -> list:
        """(name, array) GM buffers a launch passes after the kernel's own arguments."""
        return []

    def check_launch(self, module, kernel_type: str, block_dim: int) -> None:
        """Refuse (SpecError) a launch this backend cannot run, before any core starts."""
