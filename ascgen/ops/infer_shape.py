"""An operator's output shapes and data types from its own InferShape / InferDataType functions, unchanged.

Ops register them in op_host/*_infershape.cpp (`IMPL_OP_INFERSHAPE(IsInf).InferShape(fn).InferDataType(fn)`).
host_build.infershape_runner links those sources with the host runtime the tiling runner uses into a sibling
program; `infer_outputs` writes it the tiling request (inputs, attributes in the definition's order, each
output with the data type and format it is declared with) and reads back each output's shape, and its data
type where the op registers InferDataType. Without InferDataType the output's type is the one the
definition fixes for the inputs' types (its DataType columns), else the first input's.

The runner is its own process, as the tiling runner is: an InferShape that crashes is a KernelCrashError,
one that fails an OpTilingError quoting the op's own messages. The tensors carry no data, so an InferShape
that reads a const input's values sees none (it fails with its own message).
"""
from __future__ import annotations

from typing import Sequence

from ascgen import products
from ascgen.errors import SpecError
from ascgen.ops import dtypes, host_build, op_def
from ascgen.ops.host_tiling import TIME_LIMIT_S, TensorSpec, _run, _tensor_line

PREFIX = "ASCGEN-INFER"


def infer_outputs(op_dir, product, *, inputs: Sequence, attrs: dict | None = None, op_type: str | None = None,
                  time_limit_s: float = TIME_LIMIT_S) -> list[TensorSpec]:
    """The outputs' TensorSpecs for these inputs (arrays, TensorSpecs or (shape, dtype) tuples; None leaves
    out an optional input) and attributes, from the op's InferShape (module docstring)."""
    prod = products.get(product)
    definition = op_def.read(op_dir, op_type)
    ins = [None if v is None else TensorSpec.of(v, f"{definition.op_type} input {i} ({definition.input_name(i)})")
           for i, v in enumerate(inputs)]
    declared = definition.declared(prod, "output")
    outs = [_declared_output(definition, prod, i, ins) for i in range(len(declared))]
    definition.check(prod, ins, outs)
    runner = host_build.infershape_runner(op_dir, prod)
    request = [f"op {definition.op_type}", f"soc {prod.soc_versions[0]}",
               *(f"input {_tensor_line(t)}" for t in ins if t is not None),
               *([f"input_instances {' '.join('0' if t is None else '1' for t in ins)}"] if None in ins else []),
               *(f"output {_tensor_line(t)}" for t in outs), *definition.attr_lines(attrs or {})]
    lines, _ = _run(runner.path, "\n".join(request) + "\n", definition.op_type, time_limit_s, PREFIX,
                    "InferShape function")
    shapes = _by_index(lines.get("output", []))
    types = _by_index(lines.get("dtype", []))
    return [TensorSpec(tuple(int(d) for d in shapes[i][1:]),
                       _enum(types[i][0]) if i in types else outs[i].dtype, outs[i].format)
            for i in range(len(outs))]


def check_given(definition, given: Sequence[TensorSpec], inferred: Sequence[TensorSpec]) -> None:
    """Given outputs win, but a shape that disagrees with the op's InferShape is a SpecError naming the output."""
    for i, (g, want) in enumerate(zip(given, inferred)):
        if g.shape != want.shape:
            raise SpecError(f"{definition.op_type} output {i} ({definition.output_name(i)}): the given shape "
                            f"{g.shape} is not the one the op's InferShape gives for these inputs, {want.shape}; "
                            "leave outputs= out to use the inferred shapes, or fix the given one")


def _declared_output(definition, product, index: int, ins) -> TensorSpec:
    """Output `index` as the request declares it: no dimensions (InferShape fills them), the data type the
    definition fixes for the inputs' types (else the first input's), the definition's first format (else ND)."""
    given_types = [None if t is None else t.dtype for t in ins]
    dtype = definition.output_dtype(product, index, given_types) or next(t for t in given_types if t is not None)
    formats = definition.declared(product, "output")[index].formats
    first_in = next((t for t in ins if t is not None), None)
    fmt = first_in.format if first_in is not None and (formats is None or first_in.format in formats) else \
        (formats[0] if formats else "FORMAT_ND")
    return TensorSpec((), dtype, fmt)


def _by_index(values) -> dict[int, list[str]]:
    found = {}
    for value in [values] if isinstance(values, str) else values:
        index, *rest = value.split()
        found[int(index)] = rest
    return found


def _enum(serial: str) -> str:
    """A DT_... name of the table from metadef's serial name (DT_BFLOAT16 -> DT_BF16)."""
    return next((enum for enum, name in dtypes.SERIAL_NAMES.items() if name == serial), serial)
