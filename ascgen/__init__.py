"""ascgen: describe Ascend C kernels in Python, emit readable Ascend C with SuperKernel task sync placed
correctly, run the same source on an emulated NPU on the CPU, and check hand-written sources."""
import importlib

__version__ = "0.1.0"

from . import errors, products  # noqa: E402,F401

# `ascgen.emit(kernel, product)` is a function of the module of the same name; it is imported eagerly
# (by the emission module's owner, below) because a submodule import would otherwise shadow it.
from .emit import emit  # noqa: E402,F401

# Public names, imported on first use so `import ascgen` stays fast and each module stays optional.
_LAZY = {
    "Kernel": "ascgen.builder",
    "SuperKernel": "ascgen.superkernel",
    "reference": "ascgen.reference",
    "runtime": "ascgen.runtime",
    "check": "ascgen.check",
}


def __getattr__(name):
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'ascgen' has no attribute {name!r}")
    module = importlib.import_module(module_name)
    value = module if module_name.endswith("." + name) else getattr(module, name)
    globals()[name] = value
    return value
