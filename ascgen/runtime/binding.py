"""Bind Python launch arguments to a kernel's C parameters.

numpy arrays -> GM pointer parameters (C-contiguous, bound in place so outputs are written into them),
Python numbers -> scalar parameters by the C type the compiler resolved (range-checked), bytes or numpy
structured arrays/scalars -> a tiling GM_ADDR (copied, read-only data), None -> a null pointer.
Every slot is 8 bytes; the trampoline reads sizeof(param) bytes from it, or for a struct passed by value
larger than 8 bytes, from the address it holds (host_trampoline.h).
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from ascgen.errors import KernelMemoryError, KernelSite, SpecError

_INT_RANGES = {f"{s}int{b}": ((0, 2 ** b - 1) if s == "u" else (-2 ** (b - 1), 2 ** (b - 1) - 1))
               for s in ("", "u") for b in (8, 16, 32, 64)}
_FLOATS = {"float32": np.float32, "float64": np.float64}


def _bf16():
    import ml_dtypes
    return ml_dtypes.bfloat16


@dataclass
class Bound:
    """The values of one launch: slot integers, the GM buffers, and what keeps their memory alive."""
    slots: list[int] = field(default_factory=list)
    buffers: list[tuple[str, np.ndarray]] = field(default_factory=list)   # (param name, array)
    keepalive: list = field(default_factory=list)
    readonly: list = field(default_factory=list)    # (param name, caller's read-only array, the bound copy)
    pointers: list = field(default_factory=list)    # (slot index, bound array) per non-null GM pointer


def _is_record(dtype: np.dtype) -> bool:
    """Tiling data (a structured dtype or raw np.void records), bound as bytes. Not ml_dtypes' bfloat16, whose
    kind is also "V": a bfloat16 array is an array of elements, checked against the kernel's element type."""
    return dtype.names is not None or dtype.type is np.void


def _pointer_array(value, pname: str, ctype: str, kernel: str) -> np.ndarray | None:
    if value is None:
        return None
    if isinstance(value, np.ndarray):
        if _is_record(value.dtype):
            return np.ascontiguousarray(value).view(np.uint8).reshape(-1)
        if not value.flags.c_contiguous:
            raise SpecError(f'{kernel}: parameter "{pname}" ({ctype}) needs a C-contiguous array; got a '
                            f"non-contiguous view of shape {value.shape}. Hint: pass np.ascontiguousarray(...), "
                            "and copy the result back if you need it in the original view.")
        return value
    if isinstance(value, np.void):                       # one structured record (a tiling struct)
        return np.frombuffer(value.tobytes(), dtype=np.uint8).copy()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return np.frombuffer(bytes(value), dtype=np.uint8).copy()
    raise SpecError(f'{kernel}: parameter "{pname}" is a GM pointer ({ctype}); got {type(value).__name__}. '
                    "Hint: pass a numpy array (bound in place), bytes or a structured array (tiling data), or None.")


def _check_pointee(arr: np.ndarray, pointee: str, pname: str, ctype: str, kernel: str) -> None:
    """A typed pointer (float*) must get an array of that type; byte pointers (GM_ADDR) take any."""
    if pointee in ("uint8", "int8", "void") or pointee.startswith("?"):
        return
    if arr.dtype.names is not None:
        return
    want = pointee if pointee != "bfloat16" else "bfloat16"
    if arr.dtype.name != want:
        raise SpecError(f'{kernel}: parameter "{pname}" is {ctype} ({pointee} elements); got a {arr.dtype.name} '
                        f"array. Hint: pass arr.astype(np.{want}) or declare the parameter GM_ADDR.")


# Element ctypes of `(__gm__ T*)param` casts -> the numpy dtype name an array for that parameter must have.
_CAST_DTYPES = {"float": "float32", "half": "float16", "float16_t": "float16", "bfloat16_t": "bfloat16",
                "double": "float64", "int": "int32", "int16_t": "int16", "uint16_t": "uint16", "int32_t": "int32",
                "uint32_t": "uint32", "int64_t": "int64", "uint64_t": "uint64", "float32_t": "float32"}
_RAW_DTYPES = ("uint8", "int8")     # raw bytes (`ascgen run --arg in:x.bin`) fit any element type


def _check_cast(arr: np.ndarray, cast, kernel: str) -> None:
    """A GM_ADDR parameter the source casts to one element type must not get an array of another."""
    pname, ctype, file, line = cast
    want = _CAST_DTYPES.get(ctype)
    if want is None or arr.dtype.names is not None or arr.dtype.name in _RAW_DTYPES or arr.dtype.name == want:
        return
    raise SpecError(f'{kernel}: parameter "{pname}" is used as {ctype} elements ((__gm__ {ctype}*){pname} at '
                    f"{file}:{line}); got a {arr.dtype.name} array. Hint: pass arr.astype(np.{want}) "
                    f"(or the raw bytes as uint8).")


def _scalar_bits(value, kind: str, pname: str, ctype: str, kernel: str) -> int:
    def bad(why: str) -> SpecError:
        return SpecError(f'{kernel}: parameter "{pname}" ({ctype}, {kind}) {why}')
    if isinstance(value, (np.ndarray, bytes, bytearray)) or value is None:
        raise bad(f"is a scalar; got {type(value).__name__}. Hint: pass a Python number.")
    if kind == "bool":
        if not isinstance(value, (bool, np.bool_)) and value not in (0, 1):
            raise bad(f"takes True/False or 0/1; got {value!r}")
        return int(bool(value))
    if kind in _INT_RANGES:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
            raise bad(f"takes an integer; got {value!r} ({type(value).__name__})")
        lo, hi = _INT_RANGES[kind]
        if not lo <= int(value) <= hi:
            raise bad(f"takes values in [{lo}, {hi}]; got {int(value)}")
        return int(value) & 0xFFFFFFFFFFFFFFFF
    if kind in ("float32", "float64", "float16", "bfloat16"):
        if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
            raise bad(f"takes a real number; got {value!r} ({type(value).__name__})")
        dtype = {"float16": np.float16, "bfloat16": _bf16(), **_FLOATS}[kind]
        arr = np.array([value], dtype=dtype)
        if np.isfinite(float(value)) and not np.isfinite(arr[0].astype(np.float64)):
            raise bad(f"cannot hold {value!r} (overflows {kind})")
        return int.from_bytes(arr.tobytes(), "little")
    raise bad("has a type ascgen cannot pass from Python. Hint: use GM_ADDR and pass a structured array.")


def _bind_struct(out: Bound, value, size: int, pname: str, ctype: str, kernel: str) -> None:
    """A struct passed by value (a tiling struct): its bytes in the slot when they fit in 8, else the slot
    holds the address of a kept-alive copy (host_trampoline.h load_arg)."""
    if isinstance(value, np.ndarray) and _is_record(value.dtype):
        data = np.ascontiguousarray(value).tobytes()
    elif isinstance(value, np.void):
        data = value.tobytes()
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    else:
        raise SpecError(f'{kernel}: parameter "{pname}" is a {size}-byte struct passed by value ({ctype}); got '
                        f"{type(value).__name__}. Hint: pass one numpy structured record or {size} bytes.")
    if len(data) != size:
        raise SpecError(f'{kernel}: parameter "{pname}" is a {size}-byte struct passed by value ({ctype}); got '
                        f"{len(data)} bytes. Hint: the structured dtype must match the C struct's layout.")
    if size <= 8:
        out.slots.append(int.from_bytes(data, "little"))
        return
    copy = np.frombuffer(data, dtype=np.uint8).copy()
    out.keepalive.append(copy)
    out.slots.append(copy.ctypes.data)


def check_untouched(kernel: str, readonly) -> None:
    """KernelMemoryError naming the first read-only parameter whose bound copy the kernel changed."""
    for pname, original, copy in readonly:
        before, after = original.tobytes(), copy.tobytes()
        if before != after:
            changed = int(np.count_nonzero(np.frombuffer(before, np.uint8) != np.frombuffer(after, np.uint8)))
            raise KernelMemoryError(
                f'{kernel}: the kernel wrote to parameter "{pname}", a read-only array ({changed} byte(s) '
                "changed); your array is unchanged: the kernel ran on a copy. Hint: pass a writable array "
                "(arr.copy()) if the kernel is meant to write it, or fix the write.",
                KernelSite(kernel=kernel), {"parameter": pname, "bytes_changed": changed})


def append_buffer(out: Bound, pname: str, arr: np.ndarray) -> None:
    """Bind `arr` as the next pointer slot: a GM buffer of the launch, kept alive with it."""
    out.pointers.append((len(out.slots), arr))
    out.slots.append(arr.ctypes.data)
    out.buffers.append((pname, arr))
    out.keepalive.append(arr)


def bind(kernel: str, params, kinds: list[str], args: tuple, casts=()) -> Bound:
    """`params`: (name, ctype as written) per parameter; `kinds`: the compiler's description per parameter;
    `casts`: Kernel.gm_casts, the element types the source casts GM_ADDR parameters to."""
    cast_of = {c[0]: c for c in casts}
    if len(args) != len(kinds):
        listing = ", ".join(f"{n} ({c})" for n, c in params) or "none"
        raise SpecError(f"{kernel} takes {len(kinds)} argument(s) after block_dim ({listing}); got {len(args)}.")
    out = Bound()
    for (pname, ctype), kind, value in zip(params, kinds, args):
        if kind.startswith("ptr:"):
            arr = _pointer_array(value, pname, ctype, kernel)
            if arr is None:
                out.slots.append(0)
                continue
            if isinstance(value, np.ndarray) and arr is value:
                _check_pointee(arr, kind[4:], pname, ctype, kernel)
                if pname in cast_of and kind[4:] in ("uint8", "int8", "void"):
                    _check_cast(arr, cast_of[pname], kernel)
            if not arr.flags.writeable:
                # A read-only array (np.frombuffer(bytes), a flags.writeable=False view) must never be
                # written: the kernel gets a copy, and check_untouched() reports a write to it.
                copy = arr.copy()
                out.readonly.append((pname, arr, copy))
                arr = copy
            append_buffer(out, pname, arr)
        elif kind.startswith("?"):
            _bind_struct(out, value, int(kind[1:]), pname, ctype, kernel)
        else:
            if isinstance(value, np.ndarray) and value.ndim == 0:
                value = value.item()
            elif isinstance(value, np.generic):
                value = value.item()
            out.slots.append(_scalar_bits(value, kind, pname, ctype, kernel))
    return out
