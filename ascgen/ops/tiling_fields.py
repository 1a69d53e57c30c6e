"""The fields of a tiling result by name: the op's BEGIN_TILING_DATA_DEF classes, laid out as metadef lays
out their buffer (ascgen/source/op_tiling.py computes the layout the kernels' structs use; the bytes the
tiling function saved are read with the same offsets).

The class is the one the op registers for the result's tiling key (`REGISTER_TILING_DATA_CLASS(Op_<key>,
C)`), else for the op type (`REGISTER_TILING_DATA_CLASS(Op, C)`). The saved size must be that class's
size; otherwise the fields are not named (an error says which class and sizes), never guessed.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ascgen import config
from ascgen.errors import OpTilingError
from ascgen.ops.host_build import repository_of
from ascgen.source import op_tiling

# C scalar types -> numpy (little-endian, as the host writes them).
NUMPY = {"int8_t": "<i1", "uint8_t": "<u1", "char": "<i1", "bool": "<u1", "int16_t": "<i2", "uint16_t": "<u2",
         "int32_t": "<i4", "uint32_t": "<u4", "int": "<i4", "unsigned": "<u4", "float": "<f4", "int64_t": "<i8",
         "uint64_t": "<u8", "double": "<f8", "size_t": "<u8", "half": "<f2"}
_REGISTER = re.compile(r"\bREGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")


def _registrations(op_dir: Path, sources) -> dict[str, str]:
    """op name (with _<key> for keyed ones) -> class, from the op_host sources and headers."""
    files = {*sources, *(op_dir / "op_host").rglob("*.h")}
    found: dict[str, str] = {}
    for path in sorted(files):
        for op, cls in _REGISTER.findall(op_tiling._read(path)):
            found.setdefault(op, cls)
    return found


def decoder(op_dir: Path, op_type: str, sources, product):
    """A function (tiling bytes, tiling key) -> {field: value}, or None when the op defines no tiling class
    (a plain struct: not named yet)."""
    registered = _registrations(op_dir, sources)
    if not registered:
        return None
    try:
        tiling = op_tiling.read_op_tiling(op_dir, asc_devkit=config.asc_devkit(), op_type=op_type,
                                          search_dirs=[repository_of(op_dir), op_dir.parent])
    except OpTilingError as exc:
        message = str(exc)

        def refuse(data: bytes, key: int):
            raise OpTilingError(f"{op_type}: the tiling classes cannot be read: {message}")
        return refuse

    def decode(data: bytes, key: int) -> dict:
        cls = registered.get(f"{op_type}_{key}") or registered.get(op_type)
        if cls is None:
            raise OpTilingError(f"{op_type}: no tiling class is registered for tiling key {key} or for the op type "
                                f"(REGISTER_TILING_DATA_CLASS); registered: {', '.join(sorted(registered))}")
        layout = tiling.layout(cls)
        if layout.size != len(data):
            raise OpTilingError(f"{op_type}: tiling key {key} saved {len(data)} bytes, but its class {cls} is "
                                f"{layout.size} bytes: the fields are not named")
        return {"__class__": cls, **_fields(tiling, cls, data, 0)}
    return decode


def _fields(tiling, cls: str, data: bytes, base: int) -> dict:
    layout = tiling.layout(cls)
    offsets = {m.name: m.offset for m in layout.members}
    out: dict = {}
    for kind, ctype, name, count in tiling.fields(cls):
        at = base + offsets[name]
        if kind == "struct":
            out[name] = _fields(tiling, ctype, data, at)
            continue
        dtype = np.dtype(NUMPY[ctype])
        values = np.frombuffer(data, dtype=dtype, count=count, offset=at)
        out[name] = values.tolist() if kind == "array" else values[0].item()
    return out
