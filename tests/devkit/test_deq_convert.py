"""int32 -> half through the DEQSCALE register on the devkit backend (set_deqscale, vconv_deq in
runtime/devkit/include/ascgen_devkit/convert.h), reached as the quantising norm kernels reach it: the
library's SetDeqScale(half) then Cast(half <- int32). Each result is the exact product x * scale rounded
once to the nearest half (ties to even), checked bit for bit against numpy, including products that a
detour through float would round twice, results beyond half's range and a masked tail."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

N, COUNT = 256, 200          # the last scale converts COUNT elements only: the rest keep their -7
SCALES = np.array([1.0, 0.1, 2.0 ** -16, 3.0], np.float16)

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void deq(GM_ADDR x, GM_ADDR scales, GM_ADDR out) {
    constexpr int32_t N = %(N)d, S = %(S)d, COUNT = %(COUNT)d;
    GlobalTensor<int32_t> xg;
    GlobalTensor<half> sg, og;
    xg.SetGlobalBuffer((__gm__ int32_t*)x, N);
    sg.SetGlobalBuffer((__gm__ half*)scales, 16);
    og.SetGlobalBuffer((__gm__ half*)out, S * N);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, N * sizeof(int32_t) + S * N * sizeof(half));
    LocalTensor<int32_t> xi = b.Get<int32_t>();
    LocalTensor<half> o = b.Get<half>()[2 * N];
    DataCopy(xi, xg, N);
    Duplicate(o, half(-7.0f), S * N);
    PipeBarrier<PIPE_ALL>();
    for (int32_t s = 0; s < S; s++) {
        SetDeqScale(sg.GetValue(s));
        Cast(o[s * N], xi, RoundMode::CAST_NONE, s == S - 1 ? COUNT : N);
        PipeBarrier<PIPE_V>();
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, o, S * N);
}
""" % {"N": N, "S": len(SCALES), "COUNT": COUNT}

kernels = shared_module.register(KERNEL, "ascend910b")


def _twice_rounded(rng, scale, want: int) -> np.ndarray:
    """Values whose product with `scale` rounds differently through float than directly to half."""
    found = []
    while len(found) < want:
        x = rng.integers(-2 ** 31, 2 ** 31, 1 << 20, dtype=np.int64)
        p = x * np.float64(scale)
        with np.errstate(over="ignore"):
            direct, twice = p.astype(np.float16), p.astype(np.float32).astype(np.float16)
        found.extend(x[(direct != twice) & np.isfinite(direct)][:want - len(found)])
    return np.array(found, np.int64)


@pytest.fixture(scope="module")
def x():
    rng = np.random.default_rng(11)
    special = [0, 1, -1, 2047, 2049, 4097, -4097, 65504, 65519, 65520, -65520, 70000, 2 ** 31 - 1, -2 ** 31]
    parts = [special, _twice_rounded(rng, SCALES[2], 24), rng.integers(-3000, 3000, 64),
             rng.integers(-2 ** 19, 2 ** 19, 64)]
    head = np.concatenate([np.asarray(p, np.int64) for p in parts])
    return np.concatenate([head, rng.integers(-2 ** 31, 2 ** 31, N - len(head))]).astype(np.int32)


def _expected(x, scale, count):
    with np.errstate(over="ignore"):
        want = (x[:count].astype(np.float64) * np.float64(scale)).astype(np.float16)
    return np.concatenate([want, np.full(N - count, -7, np.float16)])


@pytest.fixture(scope="module")
def out(x):
    devkit_tree.require()
    o = np.zeros(len(SCALES) * N, np.float16)
    scales = np.zeros(16, np.float16)
    scales[:len(SCALES)] = SCALES
    kernels().launch("deq", 1, x, scales, o)
    return o.reshape(len(SCALES), N)


@pytest.mark.parametrize("k", range(len(SCALES)))
def test_each_scale_matches_numpy_bit_for_bit(x, out, k):
    count = COUNT if k == len(SCALES) - 1 else N
    want = _expected(x, SCALES[k], count)
    bad = np.nonzero(out[k].view(np.uint16) != want.view(np.uint16))[0]
    assert bad.size == 0, [(int(x[i]), float(out[k][i]), float(want[i])) for i in bad[:8]]
