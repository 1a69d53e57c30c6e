"""`ascgen ops test`'s work: an op run on random inputs against its repository's golden, per shape.

For each shape: random inputs of the types the definition gives (the column of its DataType lists whose
first input has the asked dtype, else its first column), the output shapes and types from the op's
InferShape, the op run (host tiling, kernel), its golden run (golden.py), and every output compared
(compare.py). Inputs whose values matter beyond their type (index tensors, const-value inputs such as a
shape or an axis) are still random numbers here: an op that needs them fails with its own message or
mismatches, and says nothing about its kernel.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ascgen.errors import SpecError
from ascgen.ops import compare, dtypes, golden
from ascgen.ops.host_tiling import TensorSpec
from ascgen.ops.op import Op

_SHAPE = re.compile(r"^\d+(x\d+)*$")


@dataclass
class OutputResult:
    name: str
    dtype: str
    comparison: compare.Comparison


@dataclass
class ShapeResult:
    shapes: list                       # per input, None for one left out
    outputs: list[OutputResult]
    seconds: float

    @property
    def ok(self) -> bool:
        return all(o.comparison.ok for o in self.outputs)


def parse_shapes(text: str, n_inputs: int, required: list[bool]) -> list:
    """One --shapes word: `8x256` for every required input (optional ones left out), or one shape per
    declared input, comma-separated, `-` leaving one out (`8x256,8x256,256`); `1` is a one-element tensor."""
    parts = text.split(",")
    if len(parts) == 1:
        shape = _shape(parts[0], text)
        return [shape if r else None for r in required]
    if len(parts) != n_inputs:
        raise SpecError(f"--shapes {text}: {len(parts)} shapes for {n_inputs} inputs; give one shape for every "
                        "input, or one for all of them")
    return [None if p == "-" else _shape(p, text) for p in parts]


def _shape(word: str, text: str) -> tuple[int, ...]:
    if not _SHAPE.match(word):
        raise SpecError(f"--shapes {text}: {word!r} is not a shape; write dimensions joined by x (8x256), "
                        "- to leave an optional input out")
    return tuple(int(d) for d in word.split("x"))


def input_dtypes(op: Op, dtype: str | None) -> list[str]:
    """Each declared input's DT_... type: the definition's first column whose inputs have the `dtype` asked
    (one name: the first typed input's; comma-separated: each input's, `-` any), its first column without
    `dtype`; an input the definition types otherwise (no literal list) takes the first name asked."""
    declared = op.definition.declared(op.product, "input")
    words = [] if dtype is None else dtype.split(",")
    wants = [None if w in ("", "-") else dtypes.enum_of(w, "--dtype") for w in words]
    lists = [t.dtypes for t in declared]
    if len(wants) > 1 and len(wants) != len(declared):
        raise SpecError(f"--dtype {dtype}: {len(wants)} types for {len(declared)} inputs; give one, or one per input")
    if len(wants) == 1:          # the first input the definition types
        first = next((i for i, ts in enumerate(lists) if ts), None)
        wants = [wants[0] if i == first or first is None else None for i in range(len(declared))]
    columns = max((len(ts) for ts in lists if ts), default=0)
    column = 0 if not columns else next(      # no literal list at all: --dtype types every input
        (c for c in range(columns) if all(w is None or not ts or (c < len(ts) and ts[c] == w)
                                          for w, ts in zip(wants, lists))), None)
    if column is None:
        offered = "; ".join(f"{t.name}: {', '.join(t.dtypes)}" for t in declared if t.dtypes)
        raise SpecError(f"--dtype {dtype}: no combination of {op.definition.op_type}'s definition on {op.product.id} "
                        f"has it (column by column: {offered})")
    fallback = next((w for w in wants if w is not None), None)
    found = []
    for t in declared:
        if t.dtypes and column < len(t.dtypes):
            found.append(t.dtypes[column])
        elif fallback is not None:
            found.append(fallback)
        else:
            raise SpecError(f"{op.definition.op_type} input {t.name!r}: its definition lists no literal data types; "
                            "pass --dtype")
    return found


def random_input(shape, enum: str, rng: np.random.Generator) -> np.ndarray:
    """Random data of a type: floats uniform in [-2, 2), integers in [-10, 10] ([0, 10] unsigned), bools."""
    dtype = dtypes.numpy_of(enum, "an input")
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        low = 0 if np.issubdtype(dtype, np.unsignedinteger) else -10
        return rng.integers(low, 11, shape).astype(dtype)
    return rng.uniform(-2.0, 2.0, shape).astype(np.float32).astype(dtype)


def run_shape(op: Op, shapes: list, types: list[str], attrs: dict, rng: np.random.Generator,
              python: str | None, testcase_name: str) -> ShapeResult:
    start = time.perf_counter()
    arrays = [None if s is None else random_input(s, t, rng) for s, t in zip(shapes, types)]
    outs = op.outputs(*arrays, **attrs)
    got = op(*arrays, outputs=outs, **attrs)
    got = list(got) if isinstance(got, tuple) else [got]
    ins = [None if a is None else TensorSpec.of(a, "") for a in arrays]
    kwargs = golden.keyword_arguments(op.product, op.definition, ins, outs, testcase_name)
    full_attrs = _with_defaults(op, attrs)
    expected = golden.run_golden(op.op_dir, Path(op.op_dir).name, arrays, full_attrs, kwargs, python)
    if len(expected.outputs) < len(got):
        raise golden.GoldenError(f"the golden of {op.definition.op_type} returned {len(expected.outputs)} output(s); "
                                 f"the op has {len(got)} ({', '.join(op.definition.output_name(i) for i in range(len(got)))})")
    results = [OutputResult(op.definition.output_name(i), str(a.dtype), compare.compare(a, g, expected.standards))
               for i, (a, g) in enumerate(zip(got, expected.outputs))]
    return ShapeResult(shapes, results, time.perf_counter() - start)


def _with_defaults(op: Op, attrs: dict) -> dict:
    """The attributes the kernel ran with: the given ones, the definition's defaults for the rest."""
    return {**{a.name: a.default for a in op.definition.attrs if a.default is not None}, **attrs}


def parse_attr(op: Op, text: str) -> tuple[str, object]:
    """`name=value`, the value read as the definition's type for the attribute (lists comma-separated)."""
    name, eq, value = text.partition("=")
    found = next((a for a in op.definition.attrs if a.name == name), None)
    if not eq or found is None:
        raise SpecError(f"--attr {text}: give name=value with one of {op.definition.op_type}'s attributes: "
                        f"{', '.join(a.name for a in op.definition.attrs) or 'none'}")
    kind = found.kind
    try:
        if kind.startswith("list_"):
            return name, [_scalar(kind[5:], v) for v in value.split(",") if v]
        return name, _scalar(kind, value)
    except ValueError:
        raise SpecError(f"--attr {text}: {name} takes {kind} values") from None


def _scalar(kind: str, value: str):
    if kind == "bool":
        if value.lower() not in ("true", "false", "1", "0"):
            raise ValueError(value)
        return value.lower() in ("true", "1")
    return {"int": int, "float": float}.get(kind, str)(value)
