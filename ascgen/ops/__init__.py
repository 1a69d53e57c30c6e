"""Production operators from Python (issue 20): an operator folder's own op_host code, unchanged.

This stage runs the host tiling: `host_tiling(OP_DIR, product, inputs=..., outputs=..., attrs=...)` builds
the op's op_host tiling sources against ascgen's build of the public CANN host pieces and runs its
registered tiling function for the product (docs/ops.md).
"""
from ascgen.ops.host_tiling import TensorSpec, TilingResult, host_tiling

__all__ = ["TensorSpec", "TilingResult", "host_tiling"]
