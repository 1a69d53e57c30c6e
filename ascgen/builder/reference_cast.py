"""Cast with Ascend C round modes, in numpy (part of the reference oracle).

Float targets: `rint` (nearest, ties to even; also what `none` means for float32 -> float16), `round`
(nearest, ties away from zero), `floor`, `ceil`, `trunc` (toward zero), `odd` (toward zero, then the last
mantissa bit set when inexact). Integer targets: the same rounding to an integer, then saturation to the
type's range (NaN -> 0). Exact widening conversions ignore the mode.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np

from ascgen.builder.types import DTYPES


def cast(x: np.ndarray, dst: str, mode: str) -> np.ndarray:
    target = DTYPES[dst]
    src = np.asarray(x)
    wide = src.astype(np.float64)
    if not target.is_float:
        return _to_int(wide, target.np, mode)
    if mode == "none":
        with np.errstate(over="ignore"):
            return wide.astype(np.float32).astype(target.np)
    if dst == "float32":
        # float32 -> float32 rounds to an integral value in the given mode (Cast float->float)
        return _round_integral(wide, mode).astype(np.float32)
    return _to_narrow_float(wide, target.np, mode)


def _round_integral(v: np.ndarray, mode: str) -> np.ndarray:
    if mode == "rint":
        return np.rint(v)
    if mode == "floor":
        return np.floor(v)
    if mode == "ceil":
        return np.ceil(v)
    if mode == "trunc":
        return np.trunc(v)
    if mode == "round":
        return np.sign(v) * np.floor(np.abs(v) + 0.5)
    raise ValueError(f"round mode {mode!r} has no integral meaning")


def _to_int(v: np.ndarray, np_dtype, mode: str) -> np.ndarray:
    info = np.iinfo(np_dtype)
    with np.errstate(invalid="ignore"):
        r = _round_integral(v, "rint" if mode == "none" else mode)
        r = np.where(np.isnan(r), 0, np.clip(r, info.min, info.max))
    return r.astype(np.int64).astype(np_dtype)


def _bits_type(np_dtype):
    return {2: np.uint16, 4: np.uint32}[np.dtype(np_dtype).itemsize]


def _step(values: np.ndarray, toward_positive: np.ndarray, np_dtype) -> np.ndarray:
    """The neighbour of each (finite) value one ulp up (toward_positive) or down, in its own format."""
    ut = _bits_type(np_dtype)
    bits = values.view(ut).astype(np.int64)
    sign = 1 << (8 * np.dtype(np_dtype).itemsize - 1)
    negative = (bits & sign) != 0
    magnitude = bits & (sign - 1)
    # moving away from zero grows the magnitude, toward zero shrinks it; zero steps to +/- smallest
    away = toward_positive != negative
    new_mag = np.where(away, magnitude + 1, magnitude - 1)
    zero = magnitude == 0
    new_bits = np.where(zero, np.where(toward_positive, 1, sign | 1), (bits & sign) | new_mag)
    return new_bits.astype(ut).view(np_dtype)


def _to_narrow_float(v: np.ndarray, np_dtype, mode: str) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        nearest = v.astype(np.float32).astype(np_dtype)        # ties to even
    if mode == "rint":
        return nearest
    # a finite value that rounded to infinity: step from the largest finite value instead
    big = np.asarray(float(ml_dtypes.finfo(np_dtype).max)).astype(np_dtype)
    overflow = np.isfinite(v) & ~np.isfinite(nearest.astype(np.float64))
    nearest = np.where(overflow, np.where(v > 0, big, -big), nearest).astype(np_dtype)
    back = nearest.astype(np.float64)
    finite = np.isfinite(v) & np.isfinite(back)
    exact = finite & (back == v)
    up = np.where(finite & (back < v), _step(nearest, np.ones(v.shape, bool), np_dtype), nearest)
    down = np.where(finite & (back > v), _step(nearest, np.zeros(v.shape, bool), np_dtype), nearest)
    toward_zero = np.where(v >= 0, down, up)
    if mode == "floor":
        out = down
    elif mode == "ceil":
        out = up
    elif mode == "trunc":
        out = toward_zero
    elif mode == "round":
        lo, hi = down.astype(np.float64), up.astype(np.float64)
        tie = finite & ~exact & np.isclose(v - lo, hi - v, rtol=0, atol=0)
        away = np.where(v >= 0, up, down)
        out = np.where(tie, away, nearest)
    elif mode == "odd":
        ut = _bits_type(np_dtype)
        odd = (toward_zero.view(ut) | 1).view(np_dtype)
        out = np.where(exact | ~finite, nearest, odd)
    else:
        raise ValueError(f"round mode {mode!r} is not offered for float targets")
    # beyond the largest finite value: the mode decides between it and infinity
    inf = np.asarray(np.inf).astype(np_dtype)
    past = overflow & (out.astype(np.float64) == back) & ~exact
    if mode in ("ceil", "round"):
        out = np.where(past & (v > 0), inf, out)
    if mode in ("floor", "round"):
        out = np.where(past & (v < 0), -inf, out)
    return np.where(np.isfinite(v), out, nearest).astype(np_dtype)
