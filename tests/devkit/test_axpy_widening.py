"""The library's Axpy with a half source into a float destination on dav_c220 (vaxpy's widening form,
vector.h): dst = float(src) * float(scalar) + dst. The library allows it ("src: half, dst: half / float");
ops-math experimental fused_mul_add_n's 59 kernel-UT cases stopped at `no matching function for call to
vaxpy(float*&, half*&, half&, ...)`. The product of two halves is exact in float, so each lane is one float
rounding of the exact sum: checked bit-exact against numpy, with a count that ends inside a repeat."""
from __future__ import annotations

import numpy as np

from tests import devkit_tree
from tests.devkit import shared_module

COUNT = 200             # three repeats of 64 floats and 8 lanes of a fourth

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void axpy_half_into_float(GM_ADDR dst, GM_ADDR src)
{
    constexpr int32_t n = 256;
    GlobalTensor<float> dg;
    GlobalTensor<half> sg;
    dg.SetGlobalBuffer((__gm__ float*)dst, n);
    sg.SetGlobalBuffer((__gm__ half*)src, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * (sizeof(float) + sizeof(half)));
    LocalTensor<float> dl = buf.Get<float>();
    LocalTensor<half> sl = buf.Get<half>()[2 * n];
    DataCopy(dl, dg, n);
    DataCopy(sl, sg, n);
    PipeBarrier<PIPE_ALL>();
    Axpy(dl, sl, half(1.5f), """ + str(COUNT) + """);
    PipeBarrier<PIPE_ALL>();
    DataCopy(dg, dl, n);
}
"""

kernels = shared_module.register(KERNEL, "ascend910b")


def test_half_source_accumulates_into_the_float_destination_rounded_once():
    devkit_tree.require()
    rng = np.random.default_rng(21)
    dst = rng.uniform(-1e3, 1e3, 256).astype(np.float32)
    src = rng.uniform(-300, 300, 256).astype(np.float16)
    want = dst.copy()
    exact = dst[:COUNT].astype(np.float64) + src[:COUNT].astype(np.float64) * 1.5
    want[:COUNT] = exact.astype(np.float32)                     # one rounding of the exact sum
    out = dst.copy()
    kernels().launch("axpy_half_into_float", 1, out, src)
    np.testing.assert_array_equal(out.view(np.uint32), want.view(np.uint32))
