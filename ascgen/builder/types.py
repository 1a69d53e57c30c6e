"""The element types a builder kernel can use: numpy dtype, C type and size, in one table."""
from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

from ascgen.errors import SpecError


@dataclass(frozen=True)
class DType:
    name: str           # canonical numpy-style name ("float16")
    ctype: str          # Ascend C element type ("half")
    np: np.dtype        # numpy dtype (bfloat16 from ml_dtypes)
    is_float: bool

    @property
    def size(self) -> int:
        return self.np.itemsize


# The largest finite float32: TopK ranks +-inf as +-FLT_MAX (a finite range, so a chosen lane masked with
# -inf is below every other).
FLT_MAX = float(np.finfo(np.float32).max)

DTYPES: dict[str, DType] = {d.name: d for d in (
    DType("float16", "half", np.dtype(np.float16), True),
    DType("bfloat16", "bfloat16_t", np.dtype(ml_dtypes.bfloat16), True),
    DType("float32", "float", np.dtype(np.float32), True),
    DType("int8", "int8_t", np.dtype(np.int8), False),
    DType("uint8", "uint8_t", np.dtype(np.uint8), False),
    DType("int16", "int16_t", np.dtype(np.int16), False),
    DType("int32", "int32_t", np.dtype(np.int32), False),
)}

# Other spellings people use for the same types.
_ALIASES = {"half": "float16", "float": "float32", "bf16": "bfloat16", "fp16": "float16", "fp32": "float32",
            "bfloat16_t": "bfloat16", "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16",
            "int32_t": "int32"}

SCALAR_DTYPES = ("float32", "int32")   # 4-byte kernel arguments: no alignas games in SK argument structs


def dtype(value, where: str = "") -> DType:
    """The DType for a name, a numpy dtype or a numpy scalar type; SpecError otherwise."""
    if isinstance(value, DType):
        return value
    name = None
    if isinstance(value, str):
        name = _ALIASES.get(value, value)
    else:
        try:
            np_dtype = np.dtype(value)
        except TypeError:
            np_dtype = None
        if np_dtype is not None:
            name = np_dtype.name
    if name in DTYPES:
        return DTYPES[name]
    at = f" at {where}" if where else ""
    raise SpecError(f"unsupported dtype {value!r}{at}; use one of: {', '.join(DTYPES)}")
