"""ascgen: describe Ascend C kernels in Python, emit readable Ascend C with SuperKernel task sync placed
correctly, run the same source on an emulated NPU on the CPU, and check hand-written sources."""
__version__ = "0.1.0"

from . import errors, products  # noqa: F401

# The builder API (Kernel, SuperKernel, emit, ...) is exported here by ascgen/builder.py's owner.
