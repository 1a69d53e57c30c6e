"""Run an operator's registered host tiling function, unchanged, for a product and a set of tensors.

`host_tiling(op_dir, product, inputs=[...], outputs=[...], attrs={...})` builds the op's tiling runner
(host_build.py), writes the request (shapes, dtypes, formats, attributes in the definition's order, the
product's SoC), and runs it in its own process: a tiling function that crashes kills that process only and
is a KernelCrashError here; one that fails (returns an error status) is an OpTilingError carrying the op's
own error messages. The platform the tiling function sees (core counts, UB/L1/L0 sizes, SoC version) is
the product table's (ascgen/products.py), through the same fe::PlatFormInfos the devkit backend uses.
"""
from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ascgen import products
from ascgen.errors import OpTilingError, SpecError
from ascgen.ops import dtypes, host_build, op_def, tiling_fields
from ascgen.runtime import isolate

DEFAULT_CAPACITY = 64 * 1024        # tiling data bytes the runner offers (CANN's default max is 64 KiB)
TIME_LIMIT_S = 120.0
_LINE = re.compile(r"^ASCGEN-TILING (\w+) ?(.*)$", re.M)
_OP_ERROR = re.compile(r"^\[op (?:error \w+|host ERROR)\][^\n]*$", re.M)

@dataclass(frozen=True)
class TensorSpec:
    """One input or output as the tiling function sees it: shape, data type, format."""
    shape: tuple[int, ...]
    dtype: str                  # a CANN name, DT_...
    format: str = "FORMAT_ND"

    def __post_init__(self):
        if any(not isinstance(d, int) or d < 0 for d in self.shape):
            raise SpecError(f"tensor shape {self.shape}: dimensions are whole numbers >= 0 (a tiling runs for "
                            "one concrete shape)")

    @classmethod
    def of(cls, value, where: str) -> "TensorSpec":
        """From a TensorSpec, a numpy array, or a (shape, dtype[, format]) tuple."""
        if isinstance(value, TensorSpec):
            return value
        if isinstance(value, np.ndarray):
            return cls(tuple(int(d) for d in value.shape), dtypes.enum_of(value.dtype, where))
        if isinstance(value, (tuple, list)) and len(value) in (2, 3) and isinstance(value[0], (tuple, list)):
            fmt = value[2] if len(value) == 3 else "ND"
            fmt = fmt if str(fmt).startswith("FORMAT_") else f"FORMAT_{fmt}"
            return cls(tuple(int(d) for d in value[0]), dtypes.enum_of(value[1], where), fmt)
        raise SpecError(f"{where}: give a numpy array, a TensorSpec or (shape, dtype[, format]), not {value!r}")


@dataclass
class TilingResult:
    """What the op's tiling function produced."""
    op_type: str
    product: str
    tiling_key: int
    block_dim: int
    schedule_mode: int
    need_atomic: bool
    workspace_sizes: list[int]
    tiling_data: bytes
    log: str = ""                       # the op's own prints and log lines
    _fields: Any = field(default=None, repr=False)     # () -> decoder (tiling_fields.decoder), or None

    @property
    def tiling(self) -> dict:
        """The tiling struct's fields by name (from the op's BEGIN_TILING_DATA_DEF or plain struct)."""
        decode = self._fields() if self._fields is not None else None     # read the sources on first use
        if decode is None:
            raise OpTilingError(f"{self.op_type}: no tiling struct definition was found to name the fields of "
                                f"its {len(self.tiling_data)} tiling bytes")
        return decode(self.tiling_data, self.tiling_key)


def host_tiling(op_dir, product, *, inputs: Sequence, outputs: Sequence, attrs: dict | None = None,
                op_type: str | None = None, capacity: int = DEFAULT_CAPACITY, platform: dict | None = None,
                time_limit_s: float = TIME_LIMIT_S) -> TilingResult:
    """Build (cached) and run the op's registered tiling function; see the module docstring.
    `attrs`: by name; the op definition (op_host/*_def.cpp) gives their order, types and defaults.
    `platform`: platform resources replaced after the product's are loaded, {"Label.key": value} in CANN's
    platform-file names (`"AICoreSpec.ub_size": 262144`, `"SoCInfo.ai_core_cnt": 64`): how a repository's
    tiling UT describes the machine it expects its numbers for."""
    op_dir = Path(op_dir)
    prod = products.get(product)
    definition = op_def.read(op_dir, op_type)
    ins = [None if v is None else TensorSpec.of(v, f"{definition.op_type} input {i} ({definition.input_name(i)})")
           for i, v in enumerate(inputs)]
    outs = [TensorSpec.of(v, f"{definition.op_type} output {i} ({definition.output_name(i)})")
            for i, v in enumerate(outputs)]
    definition.check(prod, ins, outs)
    attr_lines = definition.attr_lines(attrs or {})
    runner = host_build.runner(op_dir, prod)
    request = [f"op {definition.op_type}", f"soc {prod.soc_versions[0]}", f"capacity {int(capacity)}",
               *(f"input {_tensor_line(t)}" for t in ins if t is not None),
               *([f"input_instances {' '.join('0' if t is None else '1' for t in ins)}"] if None in ins else []),
               *(f"output {_tensor_line(t)}" for t in outs), *attr_lines,
               *_platform_lines(platform or {})]
    lines, log = _run(runner.path, "\n".join(request) + "\n", definition.op_type, time_limit_s)
    result = TilingResult(definition.op_type, prod.id, int(lines["tiling_key"]), int(lines["block_dim"]),
                          int(lines["schedule_mode"]), lines["need_atomic"] == "1",
                          [int(v) for v in lines["workspace"].split()], bytes.fromhex(lines["tiling_data"]), log)
    result._fields = functools.partial(tiling_fields.decoder, op_dir, definition.op_type, runner.sources,
                                       host_build.source_dirs(op_dir))
    return result


class Op:
    """An operator folder for one product: `ascgen.ops.load(OP_DIR, product=...)`. `op.tiling(*inputs,
    outputs=[...], **attrs)` runs its host tiling (the outputs' shapes are given: InferShape is a later
    stage of issue 20)."""

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

    def __call__(self, *inputs, outputs: Sequence, platform: dict | None = None, time_limit_s: float = 60.0,
                 **attrs):
        """Run the op: its host tiling for these arrays, then its kernel on the devkit backend with the
        tiling's key, block dim, workspace and data. The output array, or a tuple of them; an output given as
        an ascgen.ops.device_array() is written in place and returned itself."""
        from ascgen.ops import kernel
        arrays, result, ins, outs = self._tiled(inputs, outputs, platform, attrs)
        got = kernel.launch(self.op_dir, self.product, self.definition, result, arrays, ins, outs, list(outputs),
                            time_limit_s=time_limit_s, defines=self.defines)
        return got[0] if len(got) == 1 else tuple(got)

    def superkernel_task(self, product, *inputs, outputs: Sequence, platform: dict | None = None, **attrs):
        """The op as a task of `ascgen.runtime.SuperKernel(product).add(op, *inputs, outputs=[...], **attrs)`:
        its host tiling for these tensors, its kernel built, its GM allocated as for a launch (kernel.prepare),
        bound with the tiling's key and block dim. The outputs must be ascgen.ops.device_array()s: the task
        writes them when the SuperKernel runs, and one given as an input of a later task is the same memory."""
        from ascgen.ops import kernel
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
        """(the input arrays, the tiling result, the inputs' and outputs' TensorSpecs) for a run."""
        arrays = []
        for i, value in enumerate(inputs):
            if value is not None and not isinstance(value, np.ndarray):
                raise SpecError(f"{self.definition.op_type} input {i} ({self.definition.input_name(i)}): give a "
                                f"numpy array to run the op, not {type(value).__name__}")
            arrays.append(None if value is None else np.ascontiguousarray(value))
        result = self.tiling(*arrays, outputs=outputs, platform=platform, **attrs)
        ins = [None if a is None else TensorSpec.of(a, "") for a in arrays]
        return arrays, result, ins, [TensorSpec.of(v, "") for v in outputs]


def load(op_dir, product, op_type: str | None = None, defines: dict | None = None) -> Op:
    """The op folder for a product. `defines`: extra macros for its kernel build, for what the product table
    leaves open (`{"__CCE_AICORE__": 350}` on ascend950, whose value no public source settles)."""
    return Op(op_dir, product, op_type, defines)


def _platform_lines(platform: dict) -> list[str]:
    lines = []
    for name, value in platform.items():
        label, dot, key = str(name).partition(".")
        if not dot or not key or any(c.isspace() for c in f"{label}{key}{value}") or str(value) == "":
            raise SpecError(f"platform override {name!r}: {value!r}: give 'Label.key' (SoCInfo.ai_core_cnt, "
                            "AICoreSpec.ub_size...) and a value without spaces")
        lines.append(f"platform {label} {key} {value}")
    return lines


def _tensor_line(t: TensorSpec) -> str:
    fmt = t.format.removeprefix("FORMAT_")        # metadef's serial name of a format: ND, NCHW...
    return f"{dtypes.SERIAL_NAMES.get(t.dtype, t.dtype)} {fmt} {len(t.shape)} {' '.join(str(d) for d in t.shape)}".rstrip()


def _run(exe: Path, request: str, op_type: str, time_limit_s: float) -> tuple[dict, str]:
    with tempfile.TemporaryDirectory(prefix="ascgen-tiling-") as tmp:
        path = Path(tmp) / "request"
        path.write_text(request)
        try:
            proc = subprocess.run([str(exe), str(path)], capture_output=True, text=True, timeout=time_limit_s,
                                  env=os.environ.copy(), errors="replace")
        except subprocess.TimeoutExpired:
            raise OpTilingError(f"the tiling function of {op_type} was still running after {time_limit_s:.0f} s "
                                "(an endless loop?); its process was killed") from None
    log = "\n".join(line for line in (proc.stdout + proc.stderr).splitlines() if not line.startswith("ASCGEN-TILING "))
    if proc.returncode < 0:
        crash = isolate.crash_error(proc.returncode, proc.stderr, None)
        raise type(crash)(f"the tiling function of {op_type}: {crash} Its output:\n{log[-2000:]}", crash.site,
                          crash.details)
    lines = {m.group(1): m.group(2) for m in _LINE.finditer(proc.stdout)}
    if "error" in lines:
        stage, _, message = lines["error"].partition(" ")
        said = _OP_ERROR.findall(proc.stderr)
        raise OpTilingError(f"{op_type}: {message}" + (
            "; the op says:\n  " + "\n  ".join(said[-8:]) if said else "; the op printed no error message"))
    if "done" not in lines:
        raise OpTilingError(f"the tiling runner of {op_type} exited with code {proc.returncode} without a result:\n"
                            f"{log[-2000:]}")
    return lines, log
