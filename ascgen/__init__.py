"""ascgen: describe Ascend C kernels in Python, emit readable Ascend C with SuperKernel task sync placed
correctly, run the same source on an emulated NPU on the CPU, and check hand-written sources."""
import importlib

__version__ = "0.1.0"

from ascgen import errors, products  # noqa: E402,F401

# Public names, imported on first use so `import ascgen` stays fast: name -> (module, attribute or None
# for the module itself).
_LAZY = {
    "emit": ("ascgen.codegen.emit", "emit"),
    "Kernel": ("ascgen.builder", "Kernel"),
    "SuperKernel": ("ascgen.codegen.superkernel", "SuperKernel"),
    "reference": ("ascgen.builder.reference", None),
    "runtime": ("ascgen.runtime", None),
    "check": ("ascgen.check", None),
}


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module 'ascgen' has no attribute {name!r}")
    module_name, attribute = _LAZY[name]
    module = importlib.import_module(module_name)
    value = getattr(module, attribute) if attribute else module
    globals()[name] = value
    return value
