"""dav_3510 vaxpy (dav3510/valu.h) through the library's Reg::Axpy: dst = scalar * src + dst on the active lanes,
the rest zero (ZEROING, the only mode the library allows). ops-nn mish, gelu and gelu_quant (tanh form) on
ascend950 stopped at `vaxpy`. Checked bit-exact against numpy computing as the model documents (the product
and the sum in float32, then one rounding to the lane's type), on lanes where a fused float product would
give another answer, so a change of that choice shows here."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void AxpyVf(__ubuf__ T* d, __ubuf__ T* a, T scalar, uint32_t count)
{
    Reg::RegTensor<T> rd, ra;
    Reg::MaskReg m = Reg::UpdateMask<T>(count);
    Reg::LoadAlign(rd, d);
    Reg::LoadAlign(ra, a);
    Reg::Axpy(rd, ra, scalar, m);
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::StoreAlign(d, rd, all);
}

template <typename T>
__aicore__ inline void Run(GM_ADDR d, GM_ADDR a, T scalar, uint32_t count) {
    constexpr uint32_t n = 256 / sizeof(T);
    GlobalTensor<T> dg, ag;
    dg.SetGlobalBuffer((__gm__ T*)d, n);
    ag.SetGlobalBuffer((__gm__ T*)a, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<T> dl = buf.Get<T>(), al = dl[n];
    DataCopy(dl, dg, n);
    DataCopy(al, ag, n);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<AxpyVf<T>>((__ubuf__ T*)dl.GetPhyAddr(), (__ubuf__ T*)al.GetPhyAddr(), scalar, count);
    PipeBarrier<PIPE_ALL>();
    DataCopy(dg, dl, n);
}

extern "C" __global__ __aicore__ void axpy_f32(GM_ADDR d, GM_ADDR a) { Run<float>(d, a, 0.044715f, 61); }
extern "C" __global__ __aicore__ void axpy_f16(GM_ADDR d, GM_ADDR a) { Run<half>(d, a, half(0.044715f), 100); }
"""

BITS = {np.float32: np.uint32, np.float16: np.uint16}

kernels = shared_module.register(KERNEL, "ascend950")


@pytest.mark.parametrize("kernel,dtype,count", [("axpy_f32", np.float32, 61), ("axpy_f16", np.float16, 100)])
def test_axpy_adds_the_scaled_source_and_zeroes_inactive_lanes(kernel, dtype, count):
    devkit_tree.require()
    rng = np.random.default_rng(4)
    n = 256 // np.dtype(dtype).itemsize
    d, a = (rng.uniform(-4, 4, n).astype(dtype) for _ in range(2))
    s = np.float32(np.array(0.044715, dtype))
    want = (s * a.astype(np.float32) + d.astype(np.float32)).astype(dtype)    # float32 product, sum; then dtype
    want[count:] = 0
    if dtype == np.float32:
        fused = (np.float64(s) * a.astype(np.float64) + d.astype(np.float64)).astype(np.float32)
        assert (fused[:count] != want[:count]).any()      # the data tells the two choices apart
    out = d.copy()
    kernels().launch(kernel, 1, out, a)
    np.testing.assert_array_equal(out.view(BITS[dtype]), want.view(BITS[dtype]))
