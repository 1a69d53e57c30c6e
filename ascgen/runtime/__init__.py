"""The CPU runtime: compile Ascend C against the emulated API and run it on threads, one per core.

    from ascgen.runtime import load, SuperKernel
    mod = load("add_relu.cpp", product="ascend910_93")
    mod.launch("add_relu", 8, x, y, z, n)

`load` / `Module` live in module.py; `SuperKernel` (several tasks in one launch) in superkernel.py.
"""
from ascgen.runtime.loader import load  # noqa: F401
from ascgen.runtime.module import BoundTask, Module  # noqa: F401

__all__ = ["load", "Module", "BoundTask", "SuperKernel"]


def __getattr__(name):
    # Imported on first use so `import ascgen.runtime` does not build the core library.
    if name == "SuperKernel":
        from ascgen.runtime.superkernel import SuperKernel
        globals()["SuperKernel"] = SuperKernel
        return SuperKernel
    raise AttributeError(f"module 'ascgen.runtime' has no attribute {name!r}")
