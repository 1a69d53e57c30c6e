"""An operator folder for one product, from Python: `ascgen.ops.load(OP_DIR, product=...)`.

`op.tiling(*inputs, outputs=..., **attrs)` runs its host tiling (host_tiling.py); `op.infer(*inputs, **attrs)`
its InferShape (infer_shape.py); `op(*arrays, **attrs)` runs the op: the outputs from InferShape unless
given, the host tiling, then the kernel on the devkit backend (kernel.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from ascgen import products
from ascgen.errors import CompileError, OpTilingError, SpecError
from ascgen.ops import host_build, infer_shape, kernel, op_def
from ascgen.ops.host_tiling import TensorSpec, TilingResult, host_tiling

# (op folder, product) whose InferShape sources do not build (a closed header, a compile error)
_UNBUILDABLE: set[tuple[str, str]] = set()


class Op:
    """An operator folder for one product: `ascgen.ops.load(OP_DIR, product=...)` (module docstring)."""

    def __init__(self, op_dir, product, op_type: str | None = None, defines: dict | None = None):
        self.op_dir = Path(op_dir)
        self.defines = dict(defines or {})       # extra macros for the kernel build (-D NAME=VALUE)
        self.product = products.get(product)
        self.definition = op_def.read(self.op_dir, op_type)

    def __repr__(self) -> str:
        return f"<ascgen.ops.Op {self.definition.op_type} ({self.op_dir}) for {self.product.id}>"

    def tiling(self, *inputs, outputs: Sequence, platform: dict | None = None, **attrs) -> TilingResult:
        return host_tiling(self.op_dir, self.product, inputs=inputs, outputs=outputs, attrs=attrs,
                           op_type=self.definition.op_type, platform=platform)

    def __call__(self, *inputs, outputs: Sequence | None = None, platform: dict | None = None,
                 time_limit_s: float = 60.0, **attrs):
        """Run the op: its host tiling for these arrays, then its kernel on the devkit backend with the
        tiling's key, block dim, workspace and data. The output array, or a tuple of them. `outputs`: the
        outputs' (shape, dtype) pairs or device_array()s (written in place and returned themselves); without
        it, the op's InferShape gives them (infer_shape.py)."""
        arrays, result, ins, outs = self._tiled(inputs, outputs, platform, attrs)
        given = list(outputs) if outputs is not None else outs
        got = kernel.launch(self.op_dir, self.product, self.definition, result, arrays, ins, outs, given,
                            time_limit_s=time_limit_s, defines=self.defines)
        return got[0] if len(got) == 1 else tuple(got)

    def superkernel_task(self, product, *inputs, outputs: Sequence, platform: dict | None = None, **attrs):
        """The op as a task of `ascgen.runtime.SuperKernel(product).add(op, *inputs, outputs=[...], **attrs)`:
        its host tiling for these tensors, its kernel built, its GM allocated as for a launch (kernel.prepare),
        bound with the tiling's key and block dim. The outputs must be ascgen.ops.device_array()s: the task
        writes them when the SuperKernel runs, and one given as an input of a later task is the same memory."""
        from ascgen.runtime.superkernel import TaskSpec
        op_type = self.definition.op_type
        if products.get(product).id != self.product.id:
            raise SpecError(f"{op_type} was loaded for {self.product.id}, the SuperKernel runs on "
                            f"{products.get(product).id}. Hint: ascgen.ops.load(..., product="
                            f"{products.get(product).id!r}).")
        for i, value in enumerate(outputs):
            where = f"{op_type} output {i} ({self.definition.output_name(i)})"
            if kernel.allocation_of(value, where) is None:
                raise SpecError(f"{where}: in a SuperKernel give the array the task writes, made by "
                                f"ascgen.ops.device_array(shape, dtype), not {type(value).__name__}: the results "
                                "land in it when the SuperKernel runs, and a later task reads it as its input")
        arrays, result, ins, outs = self._tiled(inputs, outputs, platform, attrs)
        ready = kernel.prepare(self.op_dir, self.product, self.definition, result, arrays, ins, outs, list(outputs),
                               defines=self.defines)
        return TaskSpec(ready.module, ready.name, ready.block_dim, tuple(ready.args), ready.tiling_key,
                        after_run=lambda stacklevel: ready.check_written(self.definition, self.product, stacklevel + 1))

    def _tiled(self, inputs, outputs, platform, attrs):
        """(the input arrays, the tiling result, the inputs' and outputs' TensorSpecs) for a run; the outputs
        from InferShape when not given."""
        arrays = []
        for i, value in enumerate(inputs):
            if value is not None and not isinstance(value, np.ndarray):
                raise SpecError(f"{self.definition.op_type} input {i} ({self.definition.input_name(i)}): give a "
                                f"numpy array to run the op, not {type(value).__name__}")
            arrays.append(None if value is None else np.ascontiguousarray(value))
        outs = self.outputs(*arrays, given=outputs, **attrs)
        result = self.tiling(*arrays, outputs=outs, platform=platform, **attrs)
        ins = [None if a is None else TensorSpec.of(a, "") for a in arrays]
        return arrays, result, ins, outs

    def infer(self, *inputs, **attrs) -> list[TensorSpec]:
        """The outputs' shapes, data types and formats from the op's InferShape (infer_shape.py)."""
        return infer_shape.infer_outputs(self.op_dir, self.product, inputs=inputs, attrs=attrs,
                                         op_type=self.definition.op_type)

    def outputs(self, *inputs, given: Sequence | None = None, **attrs) -> list[TensorSpec]:
        """The outputs to run with: `given` when there are (checked against the op's InferShape where it has
        one that builds and runs), else the inferred ones."""
        if given is None:
            return self.infer(*inputs, **attrs)
        specs = [TensorSpec.of(v, f"{self.definition.op_type} output {i} ({self.definition.output_name(i)})")
                 for i, v in enumerate(given)]
        if not self._infershape_builds():
            return specs
        try:
            inferred = self.infer(*inputs, **attrs)
        except OpTilingError:
            return specs            # the given outputs win; an InferShape failing for these inputs (a const
                                    # input's values it cannot see) has nothing to say about them
        infer_shape.check_given(self.definition, specs, inferred)
        return specs

    def _infershape_builds(self) -> bool:
        """Whether the op has an InferShape runner (built once; a build that failed is remembered for the
        process, so calls with given outputs do not try it again each time)."""
        key = (str(Path(self.op_dir).resolve()), self.product.id)
        if key in _UNBUILDABLE or not host_build.infershape_sources_exist(self.op_dir):
            return False
        try:
            host_build.infershape_runner(self.op_dir, self.product)
        except (OpTilingError, CompileError):
            _UNBUILDABLE.add(key)
            return False
        return True


def load(op_dir, product, op_type: str | None = None, defines: dict | None = None) -> Op:
    """The op folder for a product. `defines`: extra macros for its kernel build, for what the product table
    leaves open or to try another value (`{"__CCE_AICORE__": 350}`)."""
    return Op(op_dir, product, op_type, defines)
