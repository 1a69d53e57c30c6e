"""What the Ascend C library offers on each architecture (`Product.npu_arch`), for the ops and dtypes the
builder knows: one table, read from the asc-devkit API pages ("产品支持情况" and the per-product dtype
and Cast tables). The builder accepts anything some architecture offers; the planner checks the product.

Round modes: for a lossy conversion CAST_NONE means round-to-nearest-even (the documented rule), so a
request for "rint" or "none" is spelled with whichever of CAST_RINT / CAST_NONE the architecture offers.
"""
from __future__ import annotations

from dataclasses import dataclass, field

_D = ("rint", "floor", "ceil", "round", "trunc")      # the directed/nearest modes most tables list

# (from, to) -> round modes, per architecture family; only conversions between the builder's dtypes and
# with a documented meaning (no SetDeqScale-dependent int32 -> half, no int32 -> int16 narrowing).
_CASTS_2201 = {   # Atlas A2 / A3 (and Atlas 200I/500 A2, 3002, whose table is the same for these types)
    ("int8", "float16"): ("none",), ("uint8", "float16"): ("none",),
    ("int16", "float16"): ("none", *_D), ("int16", "float32"): ("none",),
    ("float16", "int8"): ("none", *_D), ("float16", "uint8"): ("none", *_D),
    ("float16", "int16"): _D, ("float16", "int32"): _D, ("float16", "float32"): ("none",),
    ("bfloat16", "int32"): _D, ("bfloat16", "float32"): ("none",),
    ("int32", "float32"): ("none", *_D),
    ("float32", "int16"): _D, ("float32", "float16"): ("none", *_D, "odd"), ("float32", "bfloat16"): _D,
    ("float32", "int32"): _D, ("float32", "float32"): _D,
}
_CASTS_3510 = {   # Ascend 950
    ("int8", "int16"): ("none",), ("int8", "float16"): ("none",), ("int8", "int32"): ("none",),
    ("uint8", "float16"): ("none",),
    ("int16", "float16"): _D, ("int16", "int32"): ("none",), ("int16", "float32"): ("none",),
    ("float16", "int8"): _D, ("float16", "uint8"): _D, ("float16", "int16"): _D, ("float16", "bfloat16"): _D,
    ("float16", "int32"): _D, ("float16", "float32"): ("none",),
    ("bfloat16", "float16"): _D, ("bfloat16", "int32"): _D, ("bfloat16", "float32"): ("none",),
    ("int32", "float32"): _D,
    ("float32", "int16"): _D, ("float32", "float16"): ("none", *_D, "odd"), ("float32", "bfloat16"): _D,
    ("float32", "int32"): _D, ("float32", "float32"): _D,
}
_CASTS_2002 = {   # Atlas inference AI Core (310P)
    ("int8", "float16"): ("none",), ("uint8", "float16"): ("none",), ("int16", "float16"): ("none",),
    ("float16", "int8"): ("none", "floor", "ceil", "round", "trunc"),
    ("float16", "uint8"): ("none", "floor", "ceil", "round", "trunc"),
    ("float16", "int16"): ("rint",), ("float16", "int32"): _D, ("float16", "float32"): ("none",),
    ("int32", "float32"): ("none",), ("float32", "float16"): ("none", "odd"),
}
_CASTS_1001 = {   # Atlas training (910)
    ("int8", "float16"): ("none",), ("uint8", "float16"): ("none",), ("int16", "float16"): ("none",),
    ("float16", "int8"): ("none", "floor", "ceil", "round", "trunc"),
    ("float16", "uint8"): ("none", "floor", "ceil", "round", "trunc"),
    ("float16", "int32"): _D, ("float16", "float32"): ("none",),
    ("int32", "float32"): ("none",), ("float32", "float16"): ("none", "odd"),
}

_ALL = ("float16", "bfloat16", "float32", "int8", "uint8", "int16", "int32")
_NO_BF16 = tuple(d for d in _ALL if d != "bfloat16")
_ARITH_1001 = ("float16", "float32", "int32")


@dataclass(frozen=True)
class ArchCaps:
    dtypes: tuple[str, ...]                 # element types the architecture has
    casts: dict                             # (from, to) -> round modes
    op_dtypes: dict = field(default_factory=dict)   # ops whose dtypes differ from ops.OPS
    vector_api: bool = True                 # the basic vector API (Add, Exp, Cast...) exists at all


# The Atlas inference Vector Core (310P, vector_only) shares __NPU_ARCH__ 2002 but the API pages list
# Add, Exp, Relu, Cast... as unsupported there: builder kernels cannot target it.
_VECTOR_CORE_2002 = ArchCaps(_NO_BF16, {}, vector_api=False)

CAPS: dict[int, ArchCaps] = {
    2201: ArchCaps(_ALL, _CASTS_2201),
    3002: ArchCaps(_ALL, _CASTS_2201),
    3510: ArchCaps(_ALL, _CASTS_3510),
    2002: ArchCaps(_NO_BF16, _CASTS_2002),
    1001: ArchCaps(_NO_BF16, _CASTS_1001, {
        "Add": _ARITH_1001, "Sub": _ARITH_1001, "Mul": _ARITH_1001, "Max": _ARITH_1001, "Min": _ARITH_1001,
        "Adds": ("float16", "float32"), "Muls": ("float16", "float32"), "Maxs": (), "Mins": (),
        "Relu": ("float16",)}),
}


def caps(product) -> ArchCaps:
    """The row for a Product (its npu_arch; vector-only products of 2002 have their own row)."""
    if product.vector_only and product.npu_arch == 2002:
        return _VECTOR_CORE_2002
    # An architecture missing here gets the 2201 row: the most widely documented API level.
    return CAPS.get(product.npu_arch, CAPS[2201])


def any_cast_modes(src: str, dst: str) -> tuple[str, ...] | None:
    """Round modes some architecture offers for a conversion (the builder's call-time check)."""
    modes = [m for c in CAPS.values() for m in c.casts.get((src, dst), ())]
    return tuple(dict.fromkeys(modes)) or None


def spell_round(offered: tuple[str, ...], requested: str | None, exact: bool) -> str | None:
    """The round mode to emit for `requested` among the `offered` ones, None when impossible.
    Exact (widening) conversions have one mode; "rint" and "none" mean the same for lossy ones."""
    if exact:
        return offered[0] if offered else None
    if requested in offered:
        return requested
    twin = {"rint": "none", "none": "rint"}.get(requested or "")
    return twin if twin in offered else None
