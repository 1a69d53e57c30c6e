"""The fields of a tiling result by name: the op's BEGIN_TILING_DATA_DEF classes, laid out as metadef lays
out their buffer (ascgen/source/op_tiling.py computes the layout the kernels' structs use; the bytes the
tiling function saved are read with the same offsets).

The class is the one the op registers for the result's tiling key (`REGISTER_TILING_DATA_CLASS(Op_<key>,
C)`), else for the op type (`REGISTER_TILING_DATA_CLASS(Op, C)`). The saved size must be that class's
size; otherwise the fields are not named (an error says which class and sizes), never guessed.

An op without such classes writes a plain struct through `context->GetTilingData<T>()` (opbase's atvoss
templates do). Its candidates are the non-template T named so in the op's sources and the headers they
include; each is laid out with C's natural alignment. The one whose size is the saved size is the
struct; none or several of that size is an error naming them.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ascgen import config
from ascgen.errors import OpTilingError
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


def decoder(op_dir: Path, op_type: str, sources, search_dirs):
    """A function (tiling bytes, tiling key) -> {field: value}; `search_dirs`: where the sources' includes
    are found (the op's include path)."""
    registered = _registrations(op_dir, sources)
    if not registered:
        return _plain_decoder(op_dir, op_type, search_dirs)
    try:
        devkit = config.asc_devkit()
        if devkit is None:
            raise OpTilingError(f"reading {op_type}'s tiling classes needs the asc-devkit tree (the library's "
                                f"nested tiling structs): {config.ASC_DEVKIT_HINT}")
        tiling = op_tiling.read_op_tiling(op_dir, asc_devkit=devkit, op_type=op_type,
                                          search_dirs=search_dirs)
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


# ---- plain structs (GetTilingData<T>) ------------------------------------------------------------------

_GET = re.compile(r"\bGetTilingData\s*<\s*(?:\w+\s*::\s*)*(\w+)\s*>")
_STRUCT = re.compile(r"(?<![\w>])struct\s+(\w+)\s*(?:final\s*)?\{([^{}]*)\}\s*;")
_MEMBER = re.compile(r"^\s*(?:const\s+)?([A-Za-z_]\w*)\s+(\w+)\s*(?:\[([^\]]+)\])?\s*(?:=[^;]*)?$")


def _plain_structs(files) -> tuple[set[str], dict[str, tuple[str, str]]]:
    """(names used as GetTilingData<T>, struct name -> (body, file:line)) over the files; a struct preceded
    by `template <...>` is left out (its layout depends on its arguments)."""
    used: set[str] = set()
    defined: dict[str, tuple[str, str]] = {}
    for path in files:
        text = op_tiling._read(path)
        used |= set(_GET.findall(text))
        for m in _STRUCT.finditer(text):
            if re.search(r"template\s*<[^;{}]*>\s*$", text[:m.start()]):
                continue
            defined.setdefault(m.group(1), (m.group(2), f"{path}:{text.count(chr(10), 0, m.start()) + 1}"))
    return used, defined


def _plain_layout(body: str, consts: dict, where: str) -> tuple[list[tuple[str, str, int, int]], int] | None:
    """[(name, ctype, count, offset)], size with C's natural alignment; None if a member is not a scalar
    or an array of one (a nested struct, a pointer...)."""
    members, offset, align = [], 0, 1
    for decl in body.split(";"):
        if not decl.strip():
            continue
        m = _MEMBER.match(decl)
        if not m or m.group(1) not in NUMPY:
            return None
        ctype, name = m.group(1), m.group(2)
        count = op_tiling._evaluate(m.group(3), consts, where) if m.group(3) else 1
        size = np.dtype(NUMPY[ctype]).itemsize
        offset += -offset % size
        members.append((name, ctype, count if m.group(3) else 0, offset))
        offset += size * count
        align = max(align, size)
    return members, offset + (-offset % align)


def _plain_decoder(op_dir: Path, op_type: str, search_dirs):
    files = op_tiling._sources([op_dir], [Path(d) for d in search_dirs])
    used, defined = _plain_structs(files)
    consts = op_tiling._constants(op_tiling._read(f) for f in files)
    layouts = {}
    for name in sorted(used & set(defined)):
        body, where = defined[name]
        laid = _plain_layout(body, consts, where)
        if laid is not None:
            layouts[name] = laid
    if not layouts:
        return None

    def decode(data: bytes, key: int) -> dict:
        fits = [n for n, (_, size) in layouts.items() if size == len(data)]
        if len(fits) != 1:
            sizes = ", ".join(f"{n} ({size} B)" for n, (_, size) in layouts.items())
            raise OpTilingError(f"{op_type}: tiling key {key} saved {len(data)} bytes; the structs its sources pass "
                                f"to GetTilingData<> are {sizes}: " +
                                ("several have that size, so the fields are not named" if fits else
                                 "none has that size, so the fields are not named"))
        members, _ = layouts[fits[0]]
        out: dict = {"__class__": fits[0]}
        for name, ctype, count, at in members:
            values = np.frombuffer(data, dtype=np.dtype(NUMPY[ctype]), count=max(count, 1), offset=at)
            out[name] = values.tolist() if count else values[0].item()
        return out
    return decode
