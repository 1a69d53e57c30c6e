"""The element-wise ops a builder kernel can use: their shape (arity, scalar operand), the dtypes Ascend C
accepts for them, and the Cast conversion table. One table; the builder, the planner, the renderer and
the numpy reference all read it, so an op is added in one place."""
from __future__ import annotations

from dataclasses import dataclass

ARITH = ("float16", "float32", "int16", "int32")
FLOAT = ("float16", "float32")


@dataclass(frozen=True)
class OpInfo:
    name: str               # the Ascend C function (AscendC::<name>)
    kind: str               # "binary" (dst, a, b, n) | "scalar" (dst, a, s, n) | "unary" (dst, a, n)
                            # | "fill" (dst, s, n) | "cast" (dst, a, round, n)
    dtypes: tuple[str, ...]  # element types accepted (for cast: see CASTS)


OPS: dict[str, OpInfo] = {op.name: op for op in (
    OpInfo("Add", "binary", ARITH), OpInfo("Sub", "binary", ARITH), OpInfo("Mul", "binary", ARITH),
    OpInfo("Div", "binary", FLOAT), OpInfo("Max", "binary", ARITH), OpInfo("Min", "binary", ARITH),
    OpInfo("Adds", "scalar", ARITH), OpInfo("Muls", "scalar", ARITH),
    OpInfo("Maxs", "scalar", ARITH), OpInfo("Mins", "scalar", ARITH),
    OpInfo("LeakyRelu", "scalar", FLOAT),
    OpInfo("Exp", "unary", FLOAT), OpInfo("Ln", "unary", FLOAT), OpInfo("Abs", "unary", FLOAT),
    OpInfo("Sqrt", "unary", FLOAT), OpInfo("Reciprocal", "unary", FLOAT),
    OpInfo("Relu", "unary", ("float16", "float32", "int32")),
    OpInfo("Duplicate", "fill", ARITH),
    OpInfo("Cast", "cast", ()),
)}

ROUND_MODES = ("none", "rint", "floor", "ceil", "round", "trunc", "odd")
_DIRECTED = ("rint", "floor", "ceil", "round", "trunc")

# (from, to) -> allowed round modes: the conversions both the 2201 (Atlas A2/A3) and the 3510 (950)
# Cast tables list, so one emitted source is valid on each product we generate for.
CASTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("float32", "float16"): ("none", *_DIRECTED, "odd"),
    ("float32", "bfloat16"): _DIRECTED,
    ("float32", "int16"): _DIRECTED,
    ("float32", "int32"): _DIRECTED,
    ("float32", "float32"): _DIRECTED,
    ("float16", "int8"): _DIRECTED,
    ("float16", "uint8"): _DIRECTED,
    ("float16", "int16"): _DIRECTED,
    ("float16", "int32"): _DIRECTED,
    ("bfloat16", "int32"): _DIRECTED,
    ("int16", "float16"): _DIRECTED,
    ("float16", "float32"): ("none",),
    ("bfloat16", "float32"): ("none",),
    ("int8", "float16"): ("none",),
    ("uint8", "float16"): ("none",),
    ("int16", "float32"): ("none",),
}


def cast_rounds(src: str, dst: str) -> tuple[str, ...] | None:
    """Allowed round modes for a conversion, None when the conversion is not offered."""
    return CASTS.get((src, dst))


def cast_targets(src: str) -> list[str]:
    return sorted(d for (s, d) in CASTS if s == src)
