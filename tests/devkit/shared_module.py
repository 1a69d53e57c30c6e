"""Known-answer kernels of many test files, compiled as ONE devkit module per product.

Every devkit module pays about 2.4 s of compile before any code of its own (the library's pending template
instantiations and ascgen's glue: docs/devkit.md "Where an edited module's seconds are fixed"), so twenty small
known-answer kernels built one module each cost the suite about a minute of CPU for nothing they test. A test
file registers its kernel source at import (`kernel = shared_module.register(SOURCE, "ascend950")`) and calls
`kernel()` in its tests: the first call builds the product's module from every source registered so far, each
inside a namespace named after its file (so each file keeps its own helper templates, `Run` and the like, and a
report's line names the file in the namespace above it), and later calls return that module. pytest imports
every test file before it runs any test (xdist workers collect the whole suite alike), so every worker builds
the same text and the kernel cache gives the second worker the first one's build.

Sources must be self-contained kernels with `extern "C"` kernel names unique across the files of a product; a
source that must fail to build (a refused form) stays in its own module.
"""
from __future__ import annotations

import functools
import inspect
import re
from pathlib import Path
from typing import Callable

from ascgen.runtime.loader import load
from ascgen.runtime.module import Module
from tests import devkit_tree

_SOURCES: dict[str, list[tuple[str, str]]] = {}      # product -> [(namespace, source)], in registration order
_LIBRARY_LINES = re.compile(r'^\s*(#include\s+"kernel_operator\.h"|using\s+namespace\s+AscendC\s*;)\s*$', re.M)
# Other library headers a source includes, hoisted above the namespaces: a header first included inside one
# would declare its names in that namespace (simt_api/asc_simt.h's __asc_simt_vf).
_LIBRARY_INCLUDE = re.compile(r'^\s*#include\s+"((?:simt_api|c_api|adv_api|basic_api)/[^"]+)"\s*$', re.M)


def register(source: str, product: str) -> Callable[[], Module]:
    """Add `source` to `product`'s shared module; returns the function that gives that module (built once)."""
    caller = Path(inspect.stack()[1].filename).stem
    if _module.cache_info().currsize:
        raise RuntimeError(f"{caller}: registered after a shared devkit module was built; register at import")
    entries = _SOURCES.setdefault(product, [])
    namespace = f"{caller}_{sum(1 for name, _ in entries if name.startswith(caller))}"
    entries.append((namespace, source))
    return lambda: _module(product)


@functools.cache
def _module(product: str) -> Module:
    devkit_tree.require()
    headers = dict.fromkeys(h for _, source in _SOURCES[product] for h in _LIBRARY_INCLUDE.findall(source))
    parts = ['#include "kernel_operator.h"\n', *(f'#include "{h}"\n' for h in headers)]
    for namespace, source in _SOURCES[product]:
        body = _LIBRARY_INCLUDE.sub("", _LIBRARY_LINES.sub("", source))
        parts.append(f"namespace {namespace} {{\nusing namespace AscendC;\n{body}\n}}  // namespace {namespace}\n")
    return load("".join(parts), product, backend="devkit", filename=f"known_answers_{product}.cpp")
