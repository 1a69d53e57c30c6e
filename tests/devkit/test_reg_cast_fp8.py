"""dav_3510 vcvt to and from the 8-bit floats (dav3510/vconv.h, the element rules in ascgen_devkit/fp8.h)
through the library's Reg::Cast, in the forms the quantisation kernels call: float -> e4m3fn / e5m2 (4x
narrowing, the result at lane 4i + RegLayout, in each ROUND mode, saturating or not), e4m3fn / e5m2 ->
float (4x widening from lane 4i + RegLayout), bfloat16 <-> e8m0 (the library builds these from integer vcvt
and shifts) and the name AscendC::fp8_e8m0_t. Before, ops-nn swiglu_mx_quant / anti_mx_quant stopped at
`missing intrinsic vcvt ... Part_T` and fused_mat_mul at `'fp8_e8m0_t' is not a member of 'AscendC'`.

The references are ml_dtypes' (float8_e4m3fn, float8_e5m2, float8_e8m0fnu): rint without saturation is
ml_dtypes' own astype; the other modes pick between the two neighbours of each value on the format's grid."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from tests.devkit import shared_module

FORMATS = {"e4m3": ("fp8_e4m3fn_t", ml_dtypes.float8_e4m3fn, 448.0, 32.0),   # C++ type, dtype, max, ulp at max
           "e5m2": ("fp8_e5m2_t", ml_dtypes.float8_e5m2, 57344.0, 8192.0)}
MODES = {"rint": "CAST_RINT", "round": "CAST_ROUND", "floor": "CAST_FLOOR", "ceil": "CAST_CEIL",
         "trunc": "CAST_TRUNC", "odd": "CAST_ODD"}
# (format, mode, saturating, RegLayout): every mode of both formats, both saturations, every layout
TO_FP8 = [("e4m3", "rint", False, 0), ("e4m3", "rint", True, 1), ("e5m2", "rint", False, 2), ("e5m2", "rint", True, 3),
          ("e4m3", "round", False, 0), ("e4m3", "floor", True, 1), ("e4m3", "ceil", False, 2),
          ("e4m3", "trunc", False, 3), ("e4m3", "odd", False, 0), ("e5m2", "round", True, 1),
          ("e5m2", "floor", False, 2), ("e5m2", "ceil", True, 3), ("e5m2", "trunc", True, 0), ("e5m2", "odd", False, 1)]
COUNT = 60                                   # active float lanes: the last four are masked off (zeroing)


def _name(fmt: str, mode: str, sat: bool, layout: int) -> str:
    return f"to_{fmt}_{mode}_{'sat' if sat else 'nosat'}_{layout}"


KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

static_assert(sizeof(AscendC::fp8_e8m0_t) == 1, "kernels name the e8m0 scale type in AscendC");

template <Reg::RegLayout L, Reg::SatMode S, RoundMode R>
constexpr Reg::CastTrait kTrait = {L, S, Reg::MaskMergeMode::ZEROING, R};

template <typename F, RoundMode R, Reg::SatMode S, Reg::RegLayout L>
__simd_vf__ inline void ToFp8(__ubuf__ uint8_t* x, __ubuf__ uint8_t* y, uint32_t count)
{
    Reg::RegTensor<float> a;
    Reg::RegTensor<F> b;
    Reg::MaskReg m = Reg::UpdateMask<float>(count);
    Reg::MaskReg all = Reg::CreateMask<uint8_t, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(a, (__ubuf__ float*)x);
    Reg::Cast<F, float, kTrait<L, S, R>>(b, a, m);
    Reg::StoreAlign(y, (Reg::RegTensor<uint8_t>&)b, all);
}

template <typename F, Reg::RegLayout L>
__simd_vf__ inline void FromFp8(__ubuf__ uint8_t* x, __ubuf__ uint8_t* y, uint32_t count)
{
    Reg::RegTensor<uint8_t> a;
    Reg::RegTensor<float> b;
    Reg::MaskReg m = Reg::UpdateMask<float>(count);
    Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(a, x);
    Reg::Cast<float, F, kTrait<L, Reg::SatMode::UNKNOWN, RoundMode::UNKNOWN>>(b, (Reg::RegTensor<F>&)a, m);
    Reg::StoreAlign((__ubuf__ float*)y, b, all);
}

// bfloat16 -> e8m0 (the exponent field, results at lane 2i) and back (2^(e - 127), 0xFF NaN)
__simd_vf__ inline void ToE8m0(__ubuf__ uint8_t* x, __ubuf__ uint8_t* y, uint32_t count)
{
    Reg::RegTensor<bfloat16_t> a;
    Reg::RegTensor<fp8_e8m0_t> b;
    Reg::MaskReg m = Reg::CreateMask<bfloat16_t, Reg::MaskPattern::ALL>();
    Reg::MaskReg all = Reg::CreateMask<uint8_t, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(a, (__ubuf__ bfloat16_t*)x);
    Reg::Cast<fp8_e8m0_t, bfloat16_t, kTrait<Reg::RegLayout::ZERO, Reg::SatMode::SAT, RoundMode::CAST_RINT>>(b, a, m);
    Reg::StoreAlign(y, (Reg::RegTensor<uint8_t>&)b, all);
}
__simd_vf__ inline void FromE8m0(__ubuf__ uint8_t* x, __ubuf__ uint8_t* y, uint32_t count)
{
    Reg::RegTensor<uint8_t> a;
    Reg::RegTensor<bfloat16_t> b;
    Reg::MaskReg m = Reg::CreateMask<bfloat16_t, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(a, x);
    Reg::Cast<bfloat16_t, fp8_e8m0_t, kTrait<Reg::RegLayout::ONE, Reg::SatMode::UNKNOWN, RoundMode::UNKNOWN>>(b, (Reg::RegTensor<fp8_e8m0_t>&)a, m);
    Reg::StoreAlign((__ubuf__ bfloat16_t*)y, b, m);
}

// A scalar conversion: the storage types' constructor (nearest, ties to even, not saturating)
__simd_vf__ inline void Scalar(__ubuf__ uint8_t* x, __ubuf__ uint8_t* y, uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i) ((__ubuf__ fp8_e4m3fn_t*)y)[i] = fp8_e4m3fn_t(((__ubuf__ float*)x)[i]);
}

template <auto VF>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y, uint32_t count) {
    GlobalTensor<uint8_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ uint8_t*)x, 256);
    yg.SetGlobalBuffer((__gm__ uint8_t*)y, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<uint8_t> xl = buf.Get<uint8_t>(), yl = xl[256];
    DataCopy(xl, xg, 256);
    DataCopy(yl, yg, 256);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<VF>((__ubuf__ uint8_t*)xl.GetPhyAddr(), (__ubuf__ uint8_t*)yl.GetPhyAddr(), count);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, 256);
}
extern "C" __global__ __aicore__ void to_e8m0(GM_ADDR x, GM_ADDR y) { Run<ToE8m0>(x, y, 128); }
extern "C" __global__ __aicore__ void from_e8m0(GM_ADDR x, GM_ADDR y) { Run<FromE8m0>(x, y, 128); }
extern "C" __global__ __aicore__ void scalar_e4m3(GM_ADDR x, GM_ADDR y) { Run<Scalar>(x, y, 64); }
""" + "".join(
    f'extern "C" __global__ __aicore__ void {_name(fmt, mode, sat, layout)}(GM_ADDR x, GM_ADDR y) '
    f'{{ Run<ToFp8<{FORMATS[fmt][0]}, RoundMode::{MODES[mode]}, Reg::SatMode::{"SAT" if sat else "NO_SAT"}, '
    f'Reg::RegLayout::{("ZERO", "ONE", "TWO", "THREE")[layout]}>>(x, y, {COUNT}); }}\n'
    for fmt, mode, sat, layout in TO_FP8) + "".join(
    f'extern "C" __global__ __aicore__ void from_{fmt}_{layout}(GM_ADDR x, GM_ADDR y) '
    f'{{ Run<FromFp8<{FORMATS[fmt][0]}, Reg::RegLayout::{("ZERO", "ONE", "TWO", "THREE")[layout]}>>(x, y, {COUNT}); }}\n'
    for fmt in FORMATS for layout in range(4))


kernels = shared_module.register(KERNEL, "ascend950")


def _launch(kernel: str, x: np.ndarray) -> np.ndarray:
    y = np.full(256, 0x5A, np.uint8)                              # every byte written by the kernel
    kernels().launch(kernel, 1, x.view(np.uint8), y)
    return y


def _floats() -> np.ndarray:
    """64 floats: random magnitudes over both formats' ranges, then ties, overflow, subnormals, specials."""
    rng = np.random.default_rng(23)
    x = (rng.standard_normal(64) * np.exp2(rng.integers(-12, 17, 64))).astype(np.float32)
    edges = [1.0625, 1.1875, -1.0625, 3.0, 0.3, 460.0, 464.0, -470.0, 500.0, 1e6, 61440.0, -60000.0,
             2.0 ** -9, 2.0 ** -10, 3 * 2.0 ** -10, -(2.0 ** -17), 2.0 ** -16 * 1.5, 1e-30, -0.0, 0.0,
             np.inf, -np.inf, np.nan, 448.0, -57344.0, 1.125, 2.5 * 2.0 ** -9]
    x[:len(edges)] = edges
    return x


def _reference(x: np.ndarray, fmt: str, mode: str, sat: bool) -> np.ndarray:
    """Bytes of x in `fmt`: ml_dtypes' grid, the neighbours of each value chosen by `mode`."""
    _, dtype, top, ulp = FORMATS[fmt]
    codes = np.arange(256, dtype=np.uint8)
    values = codes.view(dtype).astype(np.float64)
    finite = np.isfinite(values)
    order = np.argsort(values[finite], kind="stable")
    grid, grid_codes = values[finite][order], codes[finite][order]
    overflow = int(np.array([np.inf], np.float32).astype(dtype).view(np.uint8)[0])   # inf (e5m2) / NaN (e4m3)
    out = []
    for v in x.astype(np.float64):
        sign = 0x80 if np.signbit(v) else 0
        if np.isnan(v):
            out.append(0 if sat else int(np.array([np.nan], np.float32).astype(dtype).view(np.uint8)[0]))
            continue
        if np.isinf(v):
            out.append(sign | int(grid_codes[-1] & 0x7F) if sat else sign | overflow)
            continue
        a = abs(v)
        if a in grid:                                             # exact (zeros keep their sign)
            out.append(sign | int(grid_codes[grid == a][-1] & 0x7F))
            continue
        lo = grid[grid < a].max() if a > grid[grid >= 0].min() else 0.0
        hi = grid[grid > a].min() if a < top else top + ulp       # top + ulp: the step past the range
        # on magnitudes: toward zero is lo; floor / ceil depend on the sign
        down = {"floor": hi if sign else lo, "ceil": lo if sign else hi, "trunc": lo}
        code = None
        if mode in down:
            pick = down[mode]
        elif mode == "odd":
            code = int(grid_codes[grid == lo][-1] & 0x7F) | 1      # truncate, then the last bit set
            pick = None if code & 0x7F <= int(grid_codes[-1] & 0x7F) else top + ulp
        elif a - lo != hi - a:
            pick = lo if a - lo < hi - a else hi
        elif mode == "round":
            pick = hi
        else:                                                     # rint: ties to the even significand
            lo_code = int(grid_codes[grid == lo][-1]) if lo else 0
            pick = lo if lo_code % 2 == 0 else hi
        if pick is not None and pick > top:
            out.append(sign | int(grid_codes[-1] & 0x7F) if sat else sign | overflow)
            continue
        if code is None:
            code = int(grid_codes[grid == pick][-1] & 0x7F)
        out.append(sign | code)
    return np.array(out, np.uint8)


@pytest.mark.parametrize("fmt, mode, sat, layout", TO_FP8, ids=[_name(*c) for c in TO_FP8])
def test_float_to_fp8_rounds_once_and_saturates_as_asked(fmt, mode, sat, layout):
    x = _floats()
    y = _launch(_name(fmt, mode, sat, layout), x)
    want = np.zeros(256, np.uint8)                                # the other lanes of each group: zero
    want[4 * np.arange(COUNT) + layout] = _reference(x, fmt, mode, sat)[:COUNT]
    np.testing.assert_array_equal(y, want)


def test_reference_agrees_with_ml_dtypes():
    # the neighbour rule of _reference is ml_dtypes' astype for rint without saturation, and its clip for SAT
    x = _floats()
    for fmt in FORMATS:
        _, dtype, top, _ = FORMATS[fmt]
        for sat in (False, True):
            v = np.nan_to_num(np.clip(x, -top, top), nan=0.0) if sat else x
            np.testing.assert_array_equal(_reference(x, fmt, "rint", sat), v.astype(dtype).view(np.uint8))


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_fp8_to_float_is_exact_from_each_layout(fmt):
    dtype = FORMATS[fmt][1]
    codes = np.arange(256, dtype=np.uint8)
    for layout in range(4):
        y = _launch(f"from_{fmt}_{layout}", codes).view(np.float32)
        want = codes[4 * np.arange(64) + layout].view(dtype).astype(np.float32)
        want[COUNT:] = 0                                          # masked off
        np.testing.assert_array_equal(y, want)                    # NaN where NaN, every value bit-exact


def test_e8m0_and_bfloat16_through_the_library_casts():
    rng = np.random.default_rng(5)
    bits = rng.integers(0, 1 << 16, 128, dtype=np.uint16)
    bits[:6] = [0x3F80, 0xBFC0, 0x7F80, 0x7FC1, 0x0001, 0x0000]   # 1, -1.5, inf, NaN, subnormal, zero
    y = _launch("to_e8m0", bits)
    want = np.zeros(256, np.uint8)
    want[0::2] = (bits >> 7) & 0xFF                               # the biased exponent: sign and significand dropped
    np.testing.assert_array_equal(y, want)
    codes = np.arange(256, dtype=np.uint8)
    got = _launch("from_e8m0", codes).view(np.uint16)
    scale = codes[1::2].view(ml_dtypes.float8_e8m0fnu).astype(np.float32).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(got, scale.view(np.uint16))     # 2^(e - 127); 0xFF NaN (bf16 0x7FC0)


def test_scalar_conversion_is_ml_dtypes_astype():
    x = _floats()
    y = _launch("scalar_e4m3", x)
    np.testing.assert_array_equal(y[:64], x.astype(ml_dtypes.float8_e4m3fn).view(np.uint8))
