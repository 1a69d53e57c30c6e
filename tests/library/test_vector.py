"""Vector ops of the emulated library against numpy: element-wise ops per dtype (half and bfloat16 computed
in float and rounded once per op), scalar ops, reductions, Compare/Select bit masks, Brcb and the level-0
masked/repeated form."""
from __future__ import annotations


import numpy as np
import pytest

from tests.library import harness

pytestmark = pytest.mark.skipif(not harness.have_compiler(), reason="no C++ compiler on PATH")

NP = harness.NP
N = 4096 + 64   # several 256-byte repeats and a partial one


@pytest.fixture(scope="session")
def vd():
    return harness.vec_driver(16 << 20)


def _inputs(dt: str, n: int = N, seed: int = 0, positive: bool = False):
    rng = np.random.default_rng(seed)
    if dt.startswith(("i", "u")):
        info = np.iinfo(NP[dt])
        lo = 1 if positive else max(info.min, -1000)
        return rng.integers(lo, min(info.max, 1000), n).astype(NP[dt])
    x = rng.standard_normal(n) * 4
    return (np.abs(x) + 0.01 if positive else x).astype(NP[dt])


def _once(f, dt, *xs):
    """numpy reference: compute in float32 (float types) and round once to the storage type."""
    if dt.startswith(("i", "u")):
        return f(*xs).astype(NP[dt])
    with np.errstate(all="ignore"):
        return f(*(x.astype(np.float32) for x in xs)).astype(np.float32).astype(NP[dt])


def _same(out, ref):
    return np.array_equal(out.view(np.uint8), np.asarray(ref).view(np.uint8))


BINARY = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Max": np.maximum, "Min": np.minimum,
          "AddRelu": lambda a, b: np.maximum(a + b, 0)}


@pytest.mark.parametrize("dt", ["f32", "f16", "bf16", "i32", "i16"])
@pytest.mark.parametrize("op", list(BINARY))
def test_binary_ops_match_numpy(vd, op, dt):
    a, b = _inputs(dt, seed=1), _inputs(dt, seed=2)
    out = np.frombuffer(vd("binary", op, dt, N, data=a.tobytes() + b.tobytes()), NP[dt])
    assert _same(out, _once(BINARY[op], dt, a, b))


@pytest.mark.parametrize("dt", ["f32", "f16", "bf16"])
def test_div_rounds_once(vd, dt):
    a, b = _inputs(dt, seed=3), _inputs(dt, seed=4, positive=True)
    out = np.frombuffer(vd("binary", "Div", dt, N, data=a.tobytes() + b.tobytes()), NP[dt])
    assert _same(out, _once(np.divide, dt, a, b))


def test_integer_add_wraps_like_hardware(vd):
    a = np.array([2**31 - 1, -2**31] * 8, np.int32)
    b = np.array([1, -1] * 8, np.int32)
    out = np.frombuffer(vd("binary", "Add", "i32", 16, data=a.tobytes() + b.tobytes()), np.int32)
    assert list(out[:2]) == [-2**31, 2**31 - 1]


def test_integer_div_by_zero_gives_all_ones_like_the_device(vd):
    # The element rule (docs/semantics.md): all ones for a zero divisor, INT_MIN / -1 wraps; never a trap.
    a = np.array([7, -7, 5, -2**31, 9, 0, 3, 1], np.int32)
    b = np.array([2, 2, 0, -1, 0, 0, -3, 1], np.int32)
    out = np.frombuffer(vd("binary", "Div", "i32", 8, data=a.tobytes() + b.tobytes()), np.int32)
    assert list(out) == [3, -3, -1, -2**31, -1, -1, -1, 1]


@pytest.mark.parametrize("op,f", [("And", np.bitwise_and), ("Or", np.bitwise_or)])
def test_bitwise_ops_on_integers(vd, op, f):
    a, b = _inputs("i16", seed=5), _inputs("i16", seed=6)
    out = np.frombuffer(vd("binary", op, "i16", N, data=a.tobytes() + b.tobytes()), np.int16)
    assert np.array_equal(out, f(a, b))


def test_in_place_binary_op(vd):
    a, b = _inputs("f32", seed=7), _inputs("f32", seed=8)
    out = np.frombuffer(vd("binary", "InPlaceAdd", "f32", N, data=a.tobytes() + b.tobytes()), np.float32)
    assert np.array_equal(out, a + b)


SCALAR = {"Adds": lambda a, s: a + s, "Muls": lambda a, s: a * s, "Maxs": np.maximum, "Mins": np.minimum,
          "LeakyRelu": lambda a, s: np.where(a >= 0, a, a * s)}


@pytest.mark.parametrize("dt", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("op", list(SCALAR))
def test_scalar_ops_match_numpy(vd, op, dt):
    a = _inputs(dt, seed=9)
    s = 0.3
    out = np.frombuffer(vd("scalar", op, dt, N, s, data=a.tobytes()), NP[dt])
    s_t = NP[dt](s).astype(np.float32)      # the scalar is converted to the element type first
    assert _same(out, _once(lambda x: SCALAR[op](x, s_t), dt, a))


def test_duplicate_and_axpy(vd):
    a = _inputs("f16", seed=10)
    dup = np.frombuffer(vd("scalar", "Duplicate", "f16", N, 1.5, data=a.tobytes()), np.float16)
    assert (dup == np.float16(1.5)).all()
    axpy = np.frombuffer(vd("scalar", "Axpy", "f16", N, 2.0, data=a.tobytes()), np.float16)
    assert _same(axpy, _once(lambda x: x * 2 + x, "f16", a))


def test_shifts_on_integers(vd):
    a = _inputs("i32", seed=11)
    left = np.frombuffer(vd("scalar", "ShiftLeft", "i32", N, 3, data=a.tobytes()), np.int32)
    right = np.frombuffer(vd("scalar", "ShiftRight", "i32", N, 3, data=a.tobytes()), np.int32)
    assert np.array_equal(left, a << 3) and np.array_equal(right, a >> 3)


UNARY = {"Exp": np.exp, "Ln": np.log, "Sqrt": np.sqrt, "Reciprocal": lambda x: 1 / x,
         "Rsqrt": lambda x: 1 / np.sqrt(x), "Abs": np.abs, "Relu": lambda x: np.maximum(x, 0)}


@pytest.mark.parametrize("dt", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("op", list(UNARY))
def test_unary_ops_match_numpy(vd, op, dt):
    a = _inputs(dt, seed=12, positive=op in ("Ln", "Sqrt", "Rsqrt"))
    out = np.frombuffer(vd("unary", op, dt, N, data=a.tobytes()), NP[dt])
    ref = _once(UNARY[op], dt, a)
    if op in ("Exp", "Ln", "Rsqrt"):
        # Not correctly rounded anywhere: compare with the float64 result rounded to the type, 1 ulp allowed.
        ref = UNARY[op](a.astype(np.float64)).astype(np.float32).astype(NP[dt])
        width = np.int32 if dt == "f32" else np.int16
        ulps = np.abs(out.view(width).astype(np.int64) - np.asarray(ref).view(width).astype(np.int64))
        assert ulps.max() <= 1
    else:
        assert _same(out, ref), np.nonzero(out.view(np.uint8) != ref.view(np.uint8))[0][:5]


def test_not_on_integers(vd):
    a = _inputs("i16", seed=13)
    out = np.frombuffer(vd("unary", "Not", "i16", N, data=a.tobytes()), np.int16)
    assert np.array_equal(out, ~a)


@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_reductions(vd, dt):
    a = _inputs(dt, n=3000, seed=14)
    s = np.frombuffer(vd("reduce", "sum", dt, 3000, data=a.tobytes()), NP[dt])
    np.testing.assert_allclose(float(s[0]), float(a.astype(np.float64).sum()), rtol=1e-3 if dt == "f16" else 1e-5,
                               atol=0.05 if dt == "f16" else 1e-4)
    idx_type = np.uint16 if dt == "f16" else np.uint32
    for op, f, arg in (("max", np.max, np.argmax), ("min", np.min, np.argmin)):
        r = np.frombuffer(vd("reduce", op, dt, 3000, data=a.tobytes()), NP[dt])
        assert r[0] == f(a)
        assert r[1:2].view(idx_type)[0] == arg(a)     # the index as the element's bit pattern


CMP = {0: np.less, 1: np.greater, 2: np.equal, 3: np.less_equal, 4: np.greater_equal, 5: np.not_equal}


@pytest.mark.parametrize("mode", list(CMP))
@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_compare_packs_bits_lsb_first(vd, mode, dt):
    a = _inputs(dt, n=512, seed=15)
    b = a.copy()
    b[::3] = _inputs(dt, n=512, seed=16)[::3]     # some equal elements for EQ/NE/LE/GE
    out = np.frombuffer(vd("compare", mode, dt, 512, data=a.tobytes() + b.tobytes()), np.uint8)
    assert np.array_equal(out, np.packbits(CMP[mode](a, b), bitorder="little"))
    sc = np.frombuffer(vd("comparescalar", mode, dt, 512, 0.25, data=a.tobytes()), np.uint8)
    assert np.array_equal(sc, np.packbits(CMP[mode](a, NP[dt](0.25)), bitorder="little"))


def test_select_tensor_tensor_and_scalar(vd):
    rng = np.random.default_rng(17)
    n = 256
    mask = rng.integers(0, 256, n // 8, dtype=np.uint8)
    a, b = _inputs("f32", n, seed=18), _inputs("f32", n, seed=19)
    bits = np.unpackbits(mask, bitorder="little").astype(bool)
    out = np.frombuffer(vd("select", "f32", n, data=mask.tobytes() + a.tobytes() + b.tobytes()), np.float32)
    assert np.array_equal(out, np.where(bits, a, b))
    out = np.frombuffer(vd("selectscalar", "f32", n, 7.0, data=mask.tobytes() + a.tobytes()), np.float32)
    assert np.array_equal(out, np.where(bits, a, np.float32(7)))


def test_select_cmpmask_mode_reuses_one_repeat_of_bits(vd):
    # VSEL_CMPMASK_SPR: the first 64 bits (float) apply to every 256-byte repeat (the select example).
    rng = np.random.default_rng(20)
    n = 256
    mask = rng.integers(0, 256, 8, dtype=np.uint8)
    a, b = _inputs("f32", n, seed=21), _inputs("f32", n, seed=22)
    bits = np.tile(np.unpackbits(mask, bitorder="little").astype(bool), n // 64)
    out = np.frombuffer(vd("selectspr", "f32", n, data=mask.tobytes() + a.tobytes() + b.tobytes()), np.float32)
    assert np.array_equal(out, np.where(bits, a, b))


def test_brcb_fills_one_block_per_element(vd):
    src = np.arange(16, dtype=np.uint16)
    out = np.frombuffer(vd("brcb", "u16", 2, 1, 8, 256, data=src.tobytes()), np.uint16)
    assert np.array_equal(out, np.repeat(src, 16))      # 16 uint16 per 32-byte block


def test_level0_add_with_mask_and_strides(vd):
    # float: 64 lanes per repeat, 8 per block. mask 20 lanes, 3 repeats, src0 block stride 2, dst repeat 16.
    args = dict(mask=20, repeat=3, db=1, s0b=2, s1b=1, dr=16, s0r=16, s1r=8)
    out_n = 1024
    x, y = _inputs("f32", out_n, seed=23), _inputs("f32", out_n, seed=24)
    out = np.frombuffer(vd("add0", "f32", *args.values(), out_n, data=x.tobytes() + y.tobytes()), np.float32)
    ref = np.zeros(out_n, np.float32)
    for r in range(args["repeat"]):
        for lane in range(args["mask"]):
            blk, e = divmod(lane, 8)
            d = r * args["dr"] * 8 + blk * args["db"] * 8 + e
            i0 = r * args["s0r"] * 8 + blk * args["s0b"] * 8 + e
            i1 = r * args["s1r"] * 8 + blk * args["s1b"] * 8 + e
            ref[d] = x[i0] + y[i1]
    assert np.array_equal(out, ref)


def test_level0_mask_out_of_range_is_reported(vd):
    x = _inputs("f32", 256, seed=25)
    err = vd("add0", "f32", 65, 1, 1, 1, 1, 8, 8, 8, 256, data=x.tobytes() * 2, expect_fault=True)
    assert "mask 65 outside 1..64" in err


@pytest.mark.parametrize("n", [64, 100, 200, 1000])
def test_counter_mode_processes_exactly_n_elements(vd, n):
    x, y = _inputs("f32", n, seed=26), _inputs("f32", n, seed=27)
    out = np.frombuffer(vd("counter_add", "f32", n, data=x.tobytes() + y.tobytes()), np.float32)
    assert np.array_equal(out[:n], x + y) and not out[n:].any()


@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("mask", [64, 40, 7])
def test_repeat_and_block_reductions(vd, dt, mask):
    epr = 256 // np.dtype(NP[dt]).itemsize
    epb = epr // 8
    repeat = 3
    x = _inputs(dt, repeat * epr, seed=28)
    rows = x.reshape(repeat, epr)[:, :mask].astype(np.float32)
    s = np.frombuffer(vd("repeat_reduce", "sum", dt, mask, repeat, data=x.tobytes()), NP[dt])
    np.testing.assert_allclose(s.astype(np.float32), rows.sum(axis=1), rtol=2e-3 if dt == "f16" else 1e-5, atol=0.05)
    idx_t = np.uint16 if dt == "f16" else np.uint32
    for op, f, arg in (("max", np.max, np.argmax), ("min", np.min, np.argmin)):
        r = np.frombuffer(vd("repeat_reduce", op, dt, mask, repeat, data=x.tobytes()), NP[dt]).reshape(repeat, 2)
        assert np.array_equal(r[:, 0].astype(np.float32), f(rows, axis=1))
        assert np.array_equal(r[:, 1].copy().view(idx_t), arg(rows, axis=1))
    b = np.frombuffer(vd("block_reduce", "max", dt, mask, repeat, data=x.tobytes()), NP[dt]).reshape(repeat, 8)
    blocks = x.reshape(repeat, 8, epb).astype(np.float32)
    for blk in range(8):
        lanes = [i for i in range(blk * epb, (blk + 1) * epb) if i < mask]
        if lanes:   # blocks without an enabled lane keep the (zeroed) destination
            assert np.array_equal(b[:, blk].astype(np.float32), blocks[:, blk, :len(lanes)].max(axis=1))
        else:
            assert not b[:, blk].astype(np.float32).any()


@pytest.mark.parametrize("m,k,n", [(16, 16, 16), (32, 4, 64), (20, 40, 24), (48, 33, 17)])
@pytest.mark.parametrize("atomic", [0, 1])
def test_cube_path_computes_a_times_b(vd, m, k, n, atomic):
    # Nd2Nz copy to L1, LoadData (A as is, B transposed per fractal) to L0A/L0B, Mmad, Fixpipe to GM.
    rng = np.random.default_rng(m * 100 + k)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c0 = rng.standard_normal((m, n)).astype(np.float32)
    out = np.frombuffer(vd("cube", m, k, n, atomic, data=a.tobytes() + b.tobytes() + c0.tobytes()),
                        np.float32).reshape(m, n)
    ref = a.astype(np.float32) @ b.astype(np.float32) + (c0 if atomic else 0)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-4)


def test_16_bit_products_and_int_min_division_wrap(vd):
    a = np.array([65535, 300, 255, 2] * 4, np.uint16)
    out = np.frombuffer(vd("binary", "Mul", "u16", 16, data=a.tobytes() + a.tobytes()), np.uint16)
    assert np.array_equal(out, (a.astype(np.uint64) * a.astype(np.uint64) % 65536).astype(np.uint16))
    x = np.full(8, -2**31, np.int32)
    y = np.full(8, -1, np.int32)
    out = np.frombuffer(vd("binary", "Div", "i32", 8, data=x.tobytes() + y.tobytes()), np.int32)
    assert (out == -2**31).all()
