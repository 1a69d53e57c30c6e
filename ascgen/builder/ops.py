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
                            # | "fill" (dst, s, n) | "cast" (dst, a, round, n) | "reduce" (one value per row)
                            # | "rotate" (2-D, within a row: RotateHalf, RotatePairs)
                            # | "topk" (2-D: TopK's (rows, k) values and TopKIndices' columns)
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
    # 2-D kernels: each row's halves swapped, the moved second half negated (RoPE's rotate_half); emitted as
    # Muls by -1 and by 1 per half-row: exact (a sign flip and a copy; a NaN stays NaN, its sign is IEEE's to leave open)
    OpInfo("RotateHalf", "rotate", FLOAT),
    # 2-D kernels: each row's lane pairs swapped, the even lane's new value negated (interleaved RoPE); emitted
    # as a Gather by a pair-swap byte-offset table and a Mul by a [-1, 1, ...] sign table, both built once in UB
    OpInfo("RotatePairs", "rotate", FLOAT),
    OpInfo("Duplicate", "fill", ARITH),
    OpInfo("Cast", "cast", ()),
    # row reductions of 2-D kernels (level-2 ReduceSum/ReduceMax/ReduceMin per row; Mean = ReduceSum * 1/cols)
    OpInfo("ReduceSum", "reduce", FLOAT), OpInfo("ReduceMax", "reduce", FLOAT),
    OpInfo("ReduceMin", "reduce", FLOAT), OpInfo("Mean", "reduce", FLOAT),
    # 2-D kernels: the k largest lanes of each row (values, descending, lower column first on ties) and
    # their columns; k rounds of the level-2 ReduceMax with calIndex, each chosen lane then masked with -inf
    OpInfo("TopK", "topk", ("float32",)), OpInfo("TopKIndices", "topk", ("int32",)),
)}

ROUND_MODES = ("none", "rint", "floor", "ceil", "round", "trunc", "odd")

# Conversions that never lose information: they have a single mode (CAST_NONE) whatever was asked.
EXACT_CASTS = frozenset({("float16", "float32"), ("bfloat16", "float32"), ("int8", "float16"),
                         ("uint8", "float16"), ("int16", "float32"), ("int8", "int16"), ("int8", "int32"),
                         ("int16", "int32")})


def cast_targets(src: str) -> list[str]:
    """Every dtype some architecture converts `src` to (caps.py holds the per-arch tables)."""
    from ascgen.builder.caps import CAPS
    return sorted({d for c in CAPS.values() for (s, d) in c.casts if s == src})
