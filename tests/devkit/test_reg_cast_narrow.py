"""dav_3510 vcvt float -> half (dav3510/vconv.h) in every rounding the library's level-2 Cast passes it
(kernel_operator_vec_vconv_impl.h: SatMode::SAT, RegLayout::ZERO, the RoundMode given at run time, so all
of them are instantiated): each result rounded once from the exact float, checked bit-exact against a numpy
reference built from the two half neighbours of each value. ops-nn celu's UTs (CAST_ROUND) stopped at
`missing intrinsic vcvt ... ROUND=1..5` before these forms were modelled (the library itself refuses
CAST_HYBRID for float -> half)."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

N = 128
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <RoundMode R>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y, uint32_t count) {
    GlobalTensor<float> xg;
    GlobalTensor<half> yg;
    xg.SetGlobalBuffer((__gm__ float*)x, 128);
    yg.SetGlobalBuffer((__gm__ half*)y, 128);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> xl = buf.Get<float>();
    LocalTensor<half> yl = buf.Get<half>()[256];
    DataCopy(xl, xg, 128);
    DataCopy(yl, yg, 128);
    PipeBarrier<PIPE_ALL>();
    Cast(yl, xl, R, count);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, 128);
}
extern "C" __global__ __aicore__ void cast_rint(GM_ADDR x, GM_ADDR y) { Run<RoundMode::CAST_RINT>(x, y, 100); }
extern "C" __global__ __aicore__ void cast_round(GM_ADDR x, GM_ADDR y) { Run<RoundMode::CAST_ROUND>(x, y, 100); }
extern "C" __global__ __aicore__ void cast_floor(GM_ADDR x, GM_ADDR y) { Run<RoundMode::CAST_FLOOR>(x, y, 100); }
extern "C" __global__ __aicore__ void cast_ceil(GM_ADDR x, GM_ADDR y) { Run<RoundMode::CAST_CEIL>(x, y, 100); }
extern "C" __global__ __aicore__ void cast_trunc(GM_ADDR x, GM_ADDR y) { Run<RoundMode::CAST_TRUNC>(x, y, 100); }
extern "C" __global__ __aicore__ void cast_odd(GM_ADDR x, GM_ADDR y) { Run<RoundMode::CAST_ODD>(x, y, 100); }
"""

kernels = shared_module.register(KERNEL, "ascend950")


def _reference(x: np.ndarray, mode: str) -> np.ndarray:
    """x rounded once to half: the nearest-even result and its neighbour on the other side of x decide."""
    x64 = x.astype(np.float64)
    with np.errstate(over="ignore"):                  # past half's range: IEEE's infinities
        near = x.astype(np.float16)                   # nearest, ties to even (one rounding: x is a float)
    nv = near.astype(np.float64)
    toward = np.where(nv > x64, -np.inf, np.inf).astype(np.float16)
    with np.errstate(over="ignore"):
        other = np.nextafter(near, toward)            # the half on the other side of x
    ov = other.astype(np.float64)
    lo, hi = np.where(nv <= x64, near, other), np.where(nv <= x64, other, near)
    exact = nv == x64
    out = {
        "rint": near,
        "floor": np.where(exact, near, lo),
        "ceil": np.where(exact, near, hi),
        "trunc": np.where(exact, near, np.where(x64 < 0, hi, lo)),
        "round": np.where(~exact & (np.abs(ov - x64) == np.abs(nv - x64)),
                          np.where(np.abs(ov) > np.abs(nv), other, near), near),
    }
    if mode == "odd":                                 # truncate, then set the last bit when inexact
        t = out["trunc"].view(np.uint16)
        return np.where(exact, near.view(np.uint16), t | 1).view(np.float16)
    return out[mode]


def _inputs() -> np.ndarray:
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(N) * 300).astype(np.float32)
    ties = np.array([0.5, 1.5, 2.5, -2.5, 2049.0, -2051.0, 2050.0, 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11], np.float32)
    x[:len(ties)] = ties                              # half ties (2049, 2051, 1 + 2^-11...), exact values
    x[10:14] = [2.0 ** -20, -(2.0 ** -25), 65519.0, -65530.0]   # subnormal, below half's least, near the top
    return x


@pytest.mark.parametrize("mode", ["rint", "round", "floor", "ceil", "trunc", "odd"])
def test_float_to_half_rounds_once_as_asked(mode):
    devkit_tree.require()
    x = _inputs()
    y = np.full(N, 7, np.float16)
    kernels().launch(f"cast_{mode}", 1, x, y)
    want = _reference(x, mode)
    want[100:] = 7                                    # past count: untouched
    np.testing.assert_array_equal(y.view(np.uint16), want.view(np.uint16))


INT16 = """
#include "kernel_operator.h"
using namespace AscendC;

template <RoundMode R>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y) {
    GlobalTensor<int16_t> xg;
    GlobalTensor<half> yg;
    xg.SetGlobalBuffer((__gm__ int16_t*)x, 128);
    yg.SetGlobalBuffer((__gm__ half*)y, 128);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<int16_t> xl = buf.Get<int16_t>();
    LocalTensor<half> yl = buf.Get<half>()[128];
    DataCopy(xl, xg, 128);
    PipeBarrier<PIPE_ALL>();
    Cast(yl, xl, R, 128);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, 128);
}
extern "C" __global__ __aicore__ void i16_floor(GM_ADDR x, GM_ADDR y) { Run<RoundMode::CAST_FLOOR>(x, y); }
extern "C" __global__ __aicore__ void i16_ceil(GM_ADDR x, GM_ADDR y) { Run<RoundMode::CAST_CEIL>(x, y); }
"""
int16_kernels = shared_module.register(INT16, "ascend950")


@pytest.mark.parametrize("mode", ["floor", "ceil"])
def test_int16_to_half_directed_rounding_is_not_nearest(mode):
    # int16 beyond 2048 is inexact in half; this form used to round to nearest whatever the mode (silently)
    devkit_tree.require()
    x = np.arange(2040, 2040 + 128 * 3, 3, dtype=np.int16)[:N]
    x[:4] = [2051, -2051, 4097, -30001]
    y = np.zeros(N, np.float16)
    int16_kernels().launch(f"i16_{mode}", 1, x, y)
    want = _reference(x.astype(np.float32), mode)         # int16 is exact in float
    np.testing.assert_array_equal(y.view(np.uint16), want.view(np.uint16))
