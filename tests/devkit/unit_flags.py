"""The compiler command of one devkit translation unit without a build: the include folders and macros the
backend compiles with (for the preprocessor, or g++ -fsyntax-only), for checks that need no module."""
from __future__ import annotations

import subprocess
from pathlib import Path

from ascgen import products, resources
from ascgen.runtime import build
from ascgen.runtime.backends.devkit import toolchain
from ascgen.runtime.module import arch_defines


def compile_unit(source: Path, product: str, *options: str, **defines) -> subprocess.CompletedProcess:
    """g++ with the devkit backend's include folders and macros for `product`, plus `options`, on `source`."""
    prod = products.get(product)
    macros = {**arch_defines(prod), **toolchain.defines(prod), **defines}
    include_dirs = [*toolchain.include_dirs(toolchain.tree()), *resources.include_dirs()]
    flags = [f for f in build.build_flags(include_dirs, macros) if f.startswith(("-I", "-D", "-std"))]
    return subprocess.run([build.find_compiler(), *flags, *options, str(source)], capture_output=True, text=True)
