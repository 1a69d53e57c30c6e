"""dav_3510 vcvt int32 -> float and int64 -> float (dav3510/vconv.h, the rule in ascgen_common/elementwise.h
int_to_float) through the library's Reg::Cast in every RoundMode it passes: the exact integer rounded once to
float. Before, only CAST_RINT was modelled and ops-math angle_v2 stopped at `vcvt ... ROUND` on ascend950.
Checked bit-exact against a Python-integer oracle (the two floats around each value, compared as exact
integers) on values that need rounding: ties, one past a tie, and int64 values beyond double's 53 bits
where rounding through double first would round twice."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

MODES = {"rint": "CAST_RINT", "round": "CAST_ROUND", "floor": "CAST_FLOOR", "ceil": "CAST_CEIL",
         "trunc": "CAST_TRUNC", "odd": "CAST_ODD"}
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

// int64 -> float narrows: results to the even float lanes (RegLayout ZERO), the odd ones zero
template <RoundMode R>
constexpr Reg::CastTrait kTrait = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING, R};

template <typename I, RoundMode R>
__simd_vf__ inline void ToFloat(__ubuf__ I* x, __ubuf__ float* y)
{
    Reg::RegTensor<I> a;
    Reg::RegTensor<float> b;
    Reg::MaskReg m = Reg::CreateMask<I, Reg::MaskPattern::ALL>();
    Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(a, x);
    Reg::Cast<float, I, kTrait<R>>(b, a, m);
    Reg::StoreAlign(y, b, all);
}

template <typename I, RoundMode R>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y) {
    constexpr uint32_t n = 256 / sizeof(I);
    GlobalTensor<I> xg;
    GlobalTensor<float> yg;
    xg.SetGlobalBuffer((__gm__ I*)x, n);
    yg.SetGlobalBuffer((__gm__ float*)y, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<I> xl = buf.Get<I>();
    LocalTensor<float> yl = buf.Get<float>()[64];
    DataCopy(xl, xg, n);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<ToFloat<I, R>>((__ubuf__ I*)xl.GetPhyAddr(), (__ubuf__ float*)yl.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, 64);
}
""" + "".join(
    f'extern "C" __global__ __aicore__ void {t}_{name}(GM_ADDR x, GM_ADDR y) '
    f'{{ Run<{ctype}, RoundMode::{mode}>(x, y); }}\n'
    for name, mode in MODES.items() for t, ctype in (("s32", "int32_t"), ("s64", "int64_t")))

kernels = shared_module.register(KERNEL, "ascend950")


def _round_int(v: int, mode: str) -> np.float32:
    """v rounded once to float32 in `mode`: the floats on either side of v, compared as exact rationals."""
    f = np.float32(float(v))
    cands = [np.nextafter(f, np.float32(-np.inf)), f, np.nextafter(f, np.float32(np.inf))]
    exact = {id(c): Fraction(float(c)) for c in cands}
    lo = max((c for c in cands if exact[id(c)] <= v), key=lambda c: exact[id(c)])
    hi = min((c for c in cands if exact[id(c)] >= v), key=lambda c: exact[id(c)])
    if exact[id(lo)] == v:
        return lo
    below, above = v - exact[id(lo)], exact[id(hi)] - v
    nearer = lo if below < above else hi
    away, toward0 = (hi, lo) if v > 0 else (lo, hi)
    return {
        "rint": (lo if int(lo.view(np.uint32)) % 2 == 0 else hi) if below == above else nearer,
        "round": away if below == above else nearer,
        "floor": lo, "ceil": hi, "trunc": toward0,
        "odd": np.uint32(int(toward0.view(np.uint32)) | 1).view(np.float32),
    }[mode]


def _inputs(dtype) -> np.ndarray:
    n = 256 // np.dtype(dtype).itemsize
    rng = np.random.default_rng(17)
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    edges = [2 ** 24 + 1, 2 ** 24 + 3, -(2 ** 24 + 1), -(2 ** 24 + 3), 2 ** 25 + 2, 2 ** 25 + 6, 2 ** 24 + 5,
             7, -7, 0, info.max, info.min]                 # ties to even / odd, one past, exact, the extremes
    if dtype == np.int64:                                  # a tie in float, not a tie after rounding to double
        edges += [2 ** 60 + 2 ** 36 + 1, -(2 ** 60 + 2 ** 36 + 1), 2 ** 60 + 2 ** 36 - 1, 2 ** 62 + 3 * 2 ** 38]
    x[:len(edges)] = edges
    return x


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("itype", ["s32", "s64"])
def test_int_to_float_rounds_once_in_each_mode(itype, mode):
    devkit_tree.require()
    dtype = {"s32": np.int32, "s64": np.int64}[itype]
    x = _inputs(dtype)
    want = np.array([_round_int(int(v), mode) for v in x], np.float32)
    if dtype == np.int64:                                  # narrowing: results in the even lanes
        want = np.stack([want, np.zeros_like(want)], axis=1).reshape(-1)
    y = np.full(64, 3, np.float32)
    kernels().launch(f"{itype}_{mode}", 1, x, y)
    np.testing.assert_array_equal(y.view(np.uint32), want.view(np.uint32))
