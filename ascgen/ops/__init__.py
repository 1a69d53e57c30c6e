"""Production operators from Python (issue 20): an operator folder's own op_host code, unchanged.

This stage runs the host tiling: `host_tiling(OP_DIR, product, inputs=..., outputs=..., attrs=...)` builds
the op's op_host tiling sources against ascgen's build of the public CANN host pieces and runs its
registered tiling function for the product; `load(OP_DIR, product=...).tiling(*inputs, outputs=..., **attrs)`
is the same through an op object (docs/ops.md).
"""
from ascgen.ops.host_tiling import Op, TensorSpec, TilingResult, host_tiling, load

__all__ = ["Op", "TensorSpec", "TilingResult", "host_tiling", "load"]
