"""Whole host programs on the emulator: a program's sources built into one Module whose `main` is called
from Python (`ascgen run PROGRAM`, the case server of `ascgen ut`), and the compiler flags of forced
includes and libraries they share, so the same program built by either caller is one cached module."""
from __future__ import annotations

import os
import re
from pathlib import Path

from ascgen.errors import SpecError
from ascgen.runtime import backends
from ascgen.source.signature import strip_comments


def program_flags(forced_includes=(), link_libs=(), lib_dirs=(), crash_report: bool = False,
                  defines: dict | None = None, file_maps=()) -> tuple[str, ...]:
    """The compiler flags of --include / -l / -L / --file-prefix-map (and the isolated child's line tables), in
    one order, so a caller that builds the same program (ascgen ut) shares the cached module. `defines`: the
    -D macros, which the forced includes must see, as g++ processes every -D before any -include.
    `file_maps`: (copy, original) folder pairs: files compiled from a copy (a build's kernel copy tree) are
    named by their originals in debug information and __FILE__, so reports point at the files users edit."""
    from ascgen.runtime.isolate import CRASH_FLAGS
    for lib in link_libs:
        if not re.fullmatch(r"[\w.+:-]+", lib):
            raise SpecError(f"-l {lib}: not a library name (write -l gtest for libgtest)")
    flags = [*(CRASH_FLAGS if crash_report else ())]
    if forced_includes and defines:
        flags += ["-include", str(_macro_header(defines))]
    for path in forced_includes:
        if not Path(path).is_file():
            raise SpecError(f"forced include (--include) {path}: no such file")
        flags += ["-include", str(Path(path).resolve())]
    flags += [f"-ffile-prefix-map={copy}={original}" for copy, original in file_maps]
    flags += [f"-L{Path(d).resolve()}" for d in lib_dirs]
    flags += [f"-l{lib}" for lib in link_libs]
    return tuple(flags)


def _macro_header(defines: dict) -> Path:
    """A header of the -D macros, force-included ahead of the --include files. The macros reach the sources
    as #define lines of the wrapper, after the emulated headers (which keeps one precompiled library header for
    every program), and that is after g++'s -include files: without this a forced header testing a -D macro
    (`#if defined(__CCE_KT_TEST__)` in a UT's tiling header) took its other branch. The wrapper defines the
    same macros again, identically. Named by its content in the cache."""
    import hashlib
    from ascgen import config
    from ascgen.runtime import build
    from ascgen.runtime.build import wrapper
    text = "// ascgen: the program's -D macros, for its --include files\n" + "\n".join(wrapper.macro_lines(defines)) + "\n"
    path = config.cache_dir() / "forced-macros" / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.h"
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        build.write_atomic(path, text.encode())
    return path


def has_main(text: str) -> bool:
    return bool(re.search(r"\bmain\s*\(", strip_comments(text)))


def load_program(sources, product, *, defines=None, include_dirs=(), kernel_type=None, extra_flags=(),
                 backend=backends.DEFAULT):
    """A Module for a whole host program (its `main` exported as __ascgen_host_main). `sources`: one path,
    or several (e.g. `ascgen emit --host` output: main.cpp plus the kernel files); exactly one defines main."""
    from ascgen.runtime.host_rewrite import compilable_copy
    from ascgen.runtime.module import Module
    # Absolute, links not followed: a source that is a link in a build's copy tree (ascgen ut's kernel copy)
    # must be compiled where it stands, so that its relative includes find the copied neighbours.
    paths = [Path(os.path.abspath(Path(s).expanduser())) for s in ([sources] if isinstance(sources, (str, Path)) else sources)]
    for path in paths:
        if not path.is_file():
            raise SpecError(f"{path}: no such file")
    texts = {path: path.read_text(errors="replace") for path in paths}
    mains = [path for path in paths if has_main(texts[path])]
    if not mains:
        hint = "pass --kernel NAME --block-dim N to launch one of its kernels"
        raise SpecError(f"{', '.join(map(str, paths))}: no main() found; {hint}")
    if len(mains) > 1:
        raise SpecError(f"main() is defined in several sources: {', '.join(map(str, mains))}")
    main = mains[0]
    return Module(texts[main], str(main), main, product, defines=defines, include_dirs=include_dirs,
                  kernel_type=kernel_type, host_main=True,
                  compile_path=compilable_copy(texts[main], str(main), program=True), extra_flags=extra_flags,
                  extra_sources=[p for p in paths if p != main], backend=backend)


def run_program(module, argv=(), *, time_limit_s: float = 60.0, detect_races: bool = False) -> int:
    """Run the program's main() with `argv`; returns its exit code, raises the typed error of a fault."""
    from ascgen.runtime import core
    for info in (module.info, *module.extra_infos):
        for k in info.kernels:
            ktype = module.kernel_type_override or k.kernel_type
            core.register_kernel(k.name, ktype, info.uses_wait, info.uses_set)
    return core.run_host(module.product, module.host_main(), [module.source, *argv],
                         time_limit_s=time_limit_s, detect_races=detect_races)
