"""The data types of an operator's tensors, one row per CANN `ge::DataType`: how Python names it, which numpy
type holds it, and which C type the kernel gets for it.

The kernel's C type is what CANN's op build passes as `-DDTYPE_<NAME>=<type>` for each input and output of
the binary being compiled (`scripts/util/ascendc_impl_build.py` of ops-nn / ops-math and asc-devkit's
`cmake/asc/fwk_modules/util/ascendc_impl_build.py`: its DTYPE_MAP), with `-DORIG_DTYPE_<NAME>=DT_...` and
`-DFORMAT_<NAME>=FORMAT_...` beside it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ascgen.errors import SpecError


@dataclass(frozen=True)
class DataType:
    enum: str                   # the ge::DataType enumerator: DT_FLOAT16
    numpy: str | None           # numpy / ml_dtypes name of the element type, None when numpy has none
    kernel: str | None          # the kernel's C type (DTYPE_<NAME>), None when the op build has none
    aliases: tuple[str, ...] = ()


TABLE = (
    DataType("DT_FLOAT", "float32", "float", ("float", "fp32")),
    DataType("DT_FLOAT16", "float16", "half", ("half", "fp16")),
    DataType("DT_BF16", "bfloat16", "bfloat16_t", ("bf16",)),
    DataType("DT_INT8", "int8", "int8_t"),
    DataType("DT_UINT8", "uint8", "uint8_t"),
    DataType("DT_INT16", "int16", "int16_t"),
    DataType("DT_UINT16", "uint16", "uint16_t"),
    DataType("DT_INT32", "int32", "int32_t"),
    DataType("DT_UINT32", "uint32", "uint32_t"),
    DataType("DT_INT64", "int64", "int64_t"),
    DataType("DT_UINT64", "uint64", "uint64_t"),
    DataType("DT_BOOL", "bool", "bool"),
    DataType("DT_DOUBLE", "float64", "double", ("double",)),
    DataType("DT_COMPLEX64", "complex64", "complex64"),
    DataType("DT_COMPLEX128", "complex128", None),
    DataType("DT_HIFLOAT8", "hifloat8", "hifloat8_t"),              # en_dtypes' numpy type (numpy_of)
    DataType("DT_FLOAT8_E5M2", "float8_e5m2", "fp8_e5m2_t"),
    DataType("DT_FLOAT8_E4M3FN", "float8_e4m3fn", "fp8_e4m3fn_t"),
    DataType("DT_INT4", "int4", "int4b_t"),
)
BY_ENUM = {t.enum: t for t in TABLE}
BY_NAME = {name: t for t in TABLE for name in (t.numpy, *t.aliases) if name}

# The definitions spell data types by their ge::DataType enumerators; metadef's serial names (what the tiling
# runner parses, type_utils_impl.cc) differ for this one only.
SERIAL_NAMES = {"DT_BF16": "DT_BFLOAT16"}


def enum_of(dtype, where: str) -> str:
    """The DT_... name of a numpy dtype, a name from the table or a DT_... name."""
    text = str(dtype)
    if text.startswith("DT_"):
        return text
    try:
        text = np.dtype(dtype).name
    except TypeError:
        pass
    row = BY_NAME.get(text.lower())
    if row is None:
        raise SpecError(f"{where}: unknown data type {dtype!r}; known: {', '.join(sorted(BY_NAME))} or a DT_... name")
    return row.enum


def numpy_of(enum: str, where: str) -> np.dtype:
    row = BY_ENUM.get(enum)
    if row is None or row.numpy is None:
        raise SpecError(f"{where}: {enum} has no numpy element type here, so it cannot be given or returned as an array")
    if row.numpy == "hifloat8":
        return _hifloat8(where)
    if row.numpy in ("bfloat16", "float8_e5m2", "float8_e4m3fn", "int4"):
        import ml_dtypes
        return np.dtype(getattr(ml_dtypes, row.numpy))
    return np.dtype(row.numpy)


def _hifloat8(where: str) -> np.dtype:
    # Only en_dtypes (Huawei's extension of ml_dtypes, which the CANN goldens use) gives numpy a hifloat8 type;
    # an optional dependency, needed by the ops with hifloat8 inputs or outputs only.
    try:
        import en_dtypes
    except ModuleNotFoundError:
        raise SpecError(f"{where}: DT_HIFLOAT8 arrays are en_dtypes' numpy hifloat8 type, and en_dtypes is not "
                        "installed: pip install en-dtypes") from None
    return np.dtype(en_dtypes.hifloat8)


def kernel_type(enum: str, where: str) -> str:
    row = BY_ENUM.get(enum)
    if row is None or row.kernel is None:
        raise SpecError(f"{where}: {enum} has no kernel C type in CANN's op build (DTYPE_MAP), so no binary of the "
                        "kernel is built for it")
    return row.kernel
