"""Production operators from Python (issue 20): an operator folder's own op_host code, unchanged.

This stage runs the host tiling: `host_tiling(OP_DIR, product, inputs=..., outputs=..., attrs=...)` builds
the op's op_host tiling sources against ascgen's build of the public CANN host pieces and runs its
registered tiling function for the product; `load(OP_DIR, product=...).tiling(*inputs, outputs=..., **attrs)`
is the same through an op object (docs/ops.md). `load(...).infer(*inputs, **attrs)` runs the op's own
InferShape; `load(...)(*arrays, **attrs)` runs the op, its outputs inferred unless given; `ascgen ops test`
compares it with its repository's golden (golden.py, op_test.py); `ascgen.runtime.SuperKernel(product).add(op,
*inputs, outputs=[device_array(...)], **attrs)` makes it a task of a SuperKernel (docs/ops.md).
"""
from ascgen.ops.host_tiling import TensorSpec, TilingResult, host_tiling
from ascgen.ops.op import Op, load
from ascgen.ops.kernel import device_array

__all__ = ["Op", "TensorSpec", "TilingResult", "device_array", "host_tiling", "load"]
