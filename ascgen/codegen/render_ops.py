"""How each planned step is spelled in Ascend C: one table from op kind to call text (the renderer's
only knowledge of the vector API)."""
from __future__ import annotations

from ascgen.builder.ops import OPS
from ascgen.builder.types import DTYPES

ROUND_C = {"none": "CAST_NONE", "rint": "CAST_RINT", "floor": "CAST_FLOOR", "ceil": "CAST_CEIL",
           "round": "CAST_ROUND", "trunc": "CAST_TRUNC", "odd": "CAST_ODD"}


def literal(value, dtype: str) -> str:
    """A C literal of the scalar, converted to the element type like the reference does."""
    if DTYPES[dtype].is_float:
        text = repr(float(value))
        text = text if ("e" in text or "." in text) else text + ".0"
        return f"{text}f" if dtype == "float32" else f"static_cast<{DTYPES[dtype].ctype}>({text}f)"
    return str(int(value)) if dtype == "int32" else f"static_cast<{DTYPES[dtype].ctype}>({int(value)})"


def scalar_text(operand, dtype: str, scalar_dtypes: dict[str, str]) -> str:
    if operand.param is None:
        return literal(operand.literal, dtype)
    ref = f"-this->{operand.param}" if operand.negate else f"this->{operand.param}"
    if scalar_dtypes[operand.param] == dtype:
        return ref
    return f"static_cast<{DTYPES[dtype].ctype}>({ref})"


def call(step, scalar_dtypes: dict[str, str], count: str = "count") -> str:
    """The call for one step over `count` elements (a C expression; 2-D kernels pass their own)."""
    kind = OPS[step.op].kind
    if kind == "binary":
        return f"AscendC::{step.op}({step.dst}, {step.srcs[0]}, {step.srcs[1]}, {count});"
    if kind == "scalar":
        s = scalar_text(step.scalar, step.dtype, scalar_dtypes)
        return f"AscendC::{step.op}({step.dst}, {step.srcs[0]}, {s}, {count});"
    if kind == "unary":
        return f"AscendC::{step.op}({step.dst}, {step.srcs[0]}, {count});"
    if kind == "fill":
        s = scalar_text(step.scalar, step.dtype, scalar_dtypes)
        return f"AscendC::Duplicate({step.dst}, {s}, {count});"
    if kind == "cast":
        return (f"AscendC::Cast({step.dst}, {step.srcs[0]}, AscendC::RoundMode::{ROUND_C[step.round]}, {count});")
    raise ValueError(f"no spelling for op kind {kind!r}")
