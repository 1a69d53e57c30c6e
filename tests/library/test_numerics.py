"""Numerics of the emulated library against numpy: half / bfloat16 storage conversions (exhaustive or
large random sets) and Cast with every RoundMode, checked against an independent oracle (searching the
sorted table of every representable value)."""
from __future__ import annotations


import ml_dtypes
import numpy as np
import pytest

from tests.library import harness

pytestmark = pytest.mark.skipif(not harness.have_compiler(), reason="no C++ compiler on PATH")

MODES = {"none": 0, "rint": 1, "floor": 2, "ceil": 3, "round": 4, "trunc": 5, "odd": 6}
NP = harness.NP


@pytest.fixture(scope="session")
def vd():
    return harness.vec_driver(64 << 20)   # big arrays at once


def _random_floats(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    scaled = rng.standard_normal(n).astype(np.float32) * np.float32(300)
    tiny = rng.standard_normal(n // 4).astype(np.float32) * np.float32(1e-6)   # half subnormals
    x = np.concatenate([bits, scaled, tiny, np.array([0.0, -0.0, 65504, 65520, 65519.99, -65520, np.inf, -np.inf],
                                                      np.float32)])
    return x[~np.isnan(x)]


def test_half_to_float_is_exact_for_every_bit_pattern(vd):
    bits = np.arange(65536, dtype=np.uint16)
    out = np.frombuffer(vd("conv", "h2f", 65536, data=bits.tobytes()), np.float32)
    ref = bits.view(np.float16).astype(np.float32)
    nan = np.isnan(ref)
    assert np.array_equal(out[~nan].view(np.uint32), ref[~nan].view(np.uint32))
    assert np.isnan(out[nan]).all()


def test_float_to_half_rounds_to_nearest_even_like_numpy(vd):
    x = _random_floats(200_000)
    out = np.frombuffer(vd("conv", "f2h", len(x), data=x.tobytes()), np.uint16)
    with np.errstate(over="ignore"):
        ref = x.astype(np.float16).view(np.uint16)
    assert np.array_equal(out, ref)


def test_half_ties_round_to_even():
    # 1 + 2^-11 lies exactly between 1 and the next half (1 + 2^-10): ties go to the even mantissa (1.0).
    x = np.array([1 + 2**-11, 1 + 3 * 2**-11, 2049, 2051], np.float32)
    assert list(x.astype(np.float16)) == [1.0, 1 + 2**-9, 2048, 2052]   # the oracle agrees with IEEE


def test_float_to_bfloat16_and_back_match_ml_dtypes(vd):
    x = _random_floats(200_000, seed=1)
    out = np.frombuffer(vd("conv", "f2bf", len(x), data=x.tobytes()), np.uint16)
    assert np.array_equal(out, x.astype(ml_dtypes.bfloat16).view(np.uint16))
    bits = np.arange(65536, dtype=np.uint16)
    back = np.frombuffer(vd("conv", "bf2f", 65536, data=bits.tobytes()), np.float32)
    ref = bits.view(ml_dtypes.bfloat16).astype(np.float32)
    nan = np.isnan(ref)
    assert np.array_equal(back[~nan].view(np.uint32), ref[~nan].view(np.uint32))


# ---- Cast oracle: directed rounding by searching the sorted table of every finite value of the target ----

def _table(dtype) -> np.ndarray:
    vals = np.arange(65536, dtype=np.uint16).view(dtype).astype(np.float64)
    vals = vals[~np.isnan(vals)]
    return np.unique(vals)        # sorted, -0 and +0 merged, includes +-inf


def _oracle_float(x: np.ndarray, dtype, mode: str) -> np.ndarray:
    t = _table(dtype)
    xd = x.astype(np.float64)
    lo = t[np.clip(np.searchsorted(t, xd, "right") - 1, 0, len(t) - 1)]   # largest <= x
    hi = t[np.clip(np.searchsorted(t, xd, "left"), 0, len(t) - 1)]        # smallest >= x
    exact = lo == xd
    if mode in ("none", "rint"):
        with np.errstate(over="ignore"):
            return x.astype(dtype)
    if mode == "floor":
        r = lo
    elif mode == "ceil":
        r = hi
    elif mode == "trunc":
        r = np.where(xd >= 0, lo, hi)
    elif mode == "round":   # nearest, ties away from zero
        with np.errstate(invalid="ignore"):
            dlo, dhi = xd - lo, hi - xd
        r = np.where(dlo < dhi, lo, np.where(dhi < dlo, hi, np.where(xd >= 0, hi, lo)))
        # beyond the largest finite value: the nearest-even rule decides overflow, like IEEE
        big = np.abs(xd) > t[-2]
        with np.errstate(over="ignore"):
            r = np.where(big, x.astype(dtype).astype(np.float64), r)
    elif mode == "odd":     # truncate, then an inexact result must have an odd last bit
        tr = np.where(xd >= 0, lo, hi)
        bits = tr.astype(dtype).view(np.uint16)
        away = np.where(xd >= 0, hi, lo)
        r = np.where(~exact & (bits % 2 == 0), away, tr)
        r = np.where(np.isinf(r) & ~np.isinf(xd), np.sign(xd) * t[-2], r)
    else:
        raise ValueError(mode)
    r = np.where(exact, xd, r)
    r = np.where(r == 0, np.copysign(0.0, xd), r)   # a rounded zero keeps the sign of x (IEEE)
    return r.astype(dtype)


@pytest.mark.parametrize("dst", ["f16", "bf16"])
@pytest.mark.parametrize("mode", list(MODES))
def test_cast_float_to_narrow_float_every_round_mode(vd, dst, mode):
    x = _random_floats(60_000, seed=MODES[mode])
    if dst == "f16":   # keep most values in half's range so the directed modes are exercised
        x = np.concatenate([x[np.abs(x) < 70000], x[:200]])
    out = np.frombuffer(vd("cast", dst, "f32", MODES[mode], len(x), data=x.tobytes()), np.uint16)
    ref = _oracle_float(x, NP[dst], mode).view(np.uint16)
    bad = np.nonzero(out != ref)[0]
    assert bad.size == 0, f"{mode}: {bad.size} mismatches, first x={x[bad[0]]!r} got {out[bad[0]]:#06x} want {ref[bad[0]]:#06x}"


def _oracle_int(x: np.ndarray, dtype, mode: str) -> np.ndarray:
    xd = x.astype(np.float64)
    f = {"none": np.rint, "rint": np.rint, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
         "odd": np.trunc, "round": lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)}[mode]
    info = np.iinfo(dtype)
    r = np.clip(np.nan_to_num(f(xd), nan=0.0), info.min, info.max)
    return r.astype(dtype)


@pytest.mark.parametrize("src", ["f32", "f16"])
@pytest.mark.parametrize("dst", ["i32", "i16", "i8", "u8"])
@pytest.mark.parametrize("mode", ["rint", "floor", "ceil", "round", "trunc"])
def test_cast_float_to_int_rounds_and_saturates(vd, src, dst, mode):
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.standard_normal(5000) * 100, rng.integers(-300, 300, 2000) + 0.5,
                        [1e10, -1e10, 2.5, -2.5, 0.5, -0.5, 255.5, 127.5]])
    with np.errstate(over="ignore"):
        x = x.astype(NP[src])
    out = np.frombuffer(vd("cast", dst, src, MODES[mode], len(x), data=x.tobytes()), NP[dst])
    ref = _oracle_int(x.astype(np.float32), NP[dst], mode)
    assert np.array_equal(out, ref), f"{src}->{dst} {mode}: {np.nonzero(out != ref)[0][:5]}"


@pytest.mark.parametrize("src,dst", [("f16", "f32"), ("bf16", "f32"), ("i32", "f32"), ("i16", "f16"),
                                     ("u8", "f16"), ("i8", "f32"), ("f16", "bf16")])
def test_cast_exact_or_nearest_conversions(vd, src, dst):
    rng = np.random.default_rng(3)
    if src.startswith(("i", "u")):
        info = np.iinfo(NP[src])
        x = rng.integers(max(info.min, -2000), min(info.max, 2000), 3000).astype(NP[src])
    else:
        x = (rng.standard_normal(3000) * 50).astype(NP[src])
    out = np.frombuffer(vd("cast", dst, src, MODES["rint"], len(x), data=x.tobytes()), NP[dst])
    ref = x.astype(np.float32).astype(NP[dst])
    assert np.array_equal(out.view(np.uint8), ref.view(np.uint8))


def test_cast_int_to_int_saturates(vd):
    x = np.array([-100000, -129, -128, 0, 127, 128, 70000], np.int32)
    out = np.frombuffer(vd("cast", "i8", "i32", 0, len(x), data=x.tobytes()), np.int8)
    assert list(out) == [-128, -128, -128, 0, 127, 127, 127]
