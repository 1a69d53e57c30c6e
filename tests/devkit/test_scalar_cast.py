"""The scalar float conversions on the devkit backend (conv_f322f16o, conv_f322s32a/c/f/r in
runtime/devkit/include/ascgen_devkit/convert.h), reached through the library's scalar Cast<float, U, mode>
(batch_normalization_grad writes its half results with ScalarCast<float, half, CAST_ODD>), checked
against numpy: round-to-odd to half, and to int32 by each rounding mode with saturation."""
from __future__ import annotations

import numpy as np

from tests import devkit_tree
from tests.devkit import shared_module

N = 64

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scalar_cast(GM_ADDR x, GM_ADDR h, GM_ADDR i) {
    GlobalTensor<float> xg;
    GlobalTensor<half> hg;
    GlobalTensor<int32_t> ig;
    xg.SetGlobalBuffer((__gm__ float*)x, %(N)d);
    hg.SetGlobalBuffer((__gm__ half*)h, %(N)d);
    ig.SetGlobalBuffer((__gm__ int32_t*)i, 4 * %(N)d);
    for (int32_t k = 0; k < %(N)d; ++k) {
        float v = xg.GetValue(k);
        hg.SetValue(k, ScalarCast<float, half, RoundMode::CAST_ODD>(v));
        ig.SetValue(k, Cast<float, int32_t, RoundMode::CAST_ROUND>(v));
        ig.SetValue(%(N)d + k, Cast<float, int32_t, RoundMode::CAST_CEIL>(v));
        ig.SetValue(2 * %(N)d + k, Cast<float, int32_t, RoundMode::CAST_FLOOR>(v));
        ig.SetValue(3 * %(N)d + k, Cast<float, int32_t, RoundMode::CAST_RINT>(v));
    }
}
""" % {"N": N}

kernels = shared_module.register(KERNEL, "ascend910b")


def _round_to_odd_half(v: np.ndarray) -> np.ndarray:
    """float32 -> float16 rounded to odd: truncate toward zero, then set the last bit when inexact."""
    out = np.empty(len(v), np.float16)
    for k, x in enumerate(v.astype(np.float64)):
        with np.errstate(over="ignore"):
            n = np.float16(x)
        if float(n) == x:
            out[k] = n
            continue
        t = n if abs(float(n)) < abs(x) else np.nextafter(n, np.float16(0))
        out[k] = (np.array([t], np.float16).view(np.uint16) | 1).view(np.float16)[0]
    return out


def _to_int32(v: np.ndarray, rounding) -> np.ndarray:
    r = rounding(v.astype(np.float64))
    return np.clip(r, -2 ** 31, 2 ** 31 - 1).astype(np.int32)


def test_scalar_casts_match_numpy():
    devkit_tree.require()
    rng = np.random.default_rng(9)
    special = [0.5, 1.5, 2.5, -0.5, -2.5, 1.0 + 2 ** -11, 1.0 + 3 * 2 ** -12, 65504.0, 65520.0, 1e6, -1e6, 3e9,
               -3e9, 2 ** -26, 1e-30, 0.0]
    x = np.concatenate([special, rng.standard_normal(N - len(special)) * 1000]).astype(np.float32)
    h, i = np.zeros(N, np.float16), np.zeros(4 * N, np.int32)
    kernels().launch("scalar_cast", 1, x, h, i)
    np.testing.assert_array_equal(h.view(np.uint16), _round_to_odd_half(x).view(np.uint16))
    away = lambda a: np.sign(a) * np.floor(np.abs(a) + 0.5)
    for k, rounding in enumerate((away, np.ceil, np.floor, np.rint)):
        np.testing.assert_array_equal(i[k * N:(k + 1) * N], _to_int32(x, rounding), err_msg=str(k))
