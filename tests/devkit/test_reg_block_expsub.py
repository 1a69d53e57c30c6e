"""dav_3510 register forms the operator repositories' arch35 kernels stopped at (dav3510/valu.h, vreduce.h,
vreg.h), each through the library's Reg:: call and checked against numpy:

* vexpdif (Reg::ExpSub): exp(src0 - src1) in float, from float lanes or from the even / odd half lanes;
* vcgmax / vcgmin (Reg::ReduceDataBlock MAX / MIN): the extreme of each 32-byte block's active lanes into
  lane k, the rest zero;
* vldus without post-update (Reg::LoadUnAlign(dst, ureg, src)): a whole register from an unaligned address.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

// y[0:64] = exp(a - b) over 64 floats, a and b float (x[0:64], x[64:128]) or the even / odd halves of
// two registers of 128 halves.
template <typename S, Reg::RegLayout L>
__simd_vf__ inline void ExpSubVf(__ubuf__ float* y, __ubuf__ S* a, __ubuf__ S* b)
{
    Reg::RegTensor<S> ra, rb;
    Reg::RegTensor<float> r;
    Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(ra, a);
    Reg::LoadAlign(rb, b);
    Reg::ExpSub<float, S, L>(r, ra, rb, all);
    Reg::StoreAlign(y, r, all);
}
// y = the per-block extreme of x's first `active` lanes, a whole register stored.
template <typename T, Reg::ReduceType R>
__simd_vf__ inline void BlockVf(__ubuf__ T* y, __ubuf__ T* x, uint32_t active)
{
    Reg::RegTensor<T> v, r;
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::MaskReg m = Reg::UpdateMask<T>(active);
    Reg::LoadAlign(v, x);
    Reg::ReduceDataBlock<R>(r, v, m);
    Reg::StoreAlign(y, r, all);
}
// y = one register loaded from x + 3 elements (not 32-byte aligned).
__simd_vf__ inline void UnalignVf(__ubuf__ float* y, __ubuf__ float* x)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad u;
    Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    Reg::LoadUnAlignPre(u, x + 3);
    Reg::LoadUnAlign(v, u, x + 3);
    Reg::StoreAlign(y, v, all);
}

// x: 512 bytes of input, y: 256 bytes of output, both in UB for the call.
template <typename S, typename Y, int KIND, int ARG>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y) {
    GlobalTensor<uint8_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ uint8_t*)x, 512);
    yg.SetGlobalBuffer((__gm__ uint8_t*)y, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 768);
    LocalTensor<uint8_t> xl = buf.Get<uint8_t>();
    LocalTensor<uint8_t> yl = xl[512];
    DataCopy(xl, xg, 512);
    PipeBarrier<PIPE_ALL>();
    __ubuf__ S* xs = (__ubuf__ S*)xl.GetPhyAddr();
    __ubuf__ Y* ys = (__ubuf__ Y*)yl.GetPhyAddr();
    if constexpr (KIND == 0)
        asc_vf_call<ExpSubVf<S, ARG == 0 ? Reg::RegLayout::ZERO : Reg::RegLayout::ONE>>(
            (__ubuf__ float*)ys, xs, xs + 256 / sizeof(S));
    else if constexpr (KIND == 1)
        asc_vf_call<BlockVf<S, Reg::ReduceType::MAX>>(ys, xs, (uint32_t)ARG);
    else if constexpr (KIND == 2)
        asc_vf_call<BlockVf<S, Reg::ReduceType::MIN>>(ys, xs, (uint32_t)ARG);
    else
        asc_vf_call<UnalignVf>((__ubuf__ float*)ys, (__ubuf__ float*)xs);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, 256);
}
extern "C" __global__ __aicore__ void expsub_f32(GM_ADDR x, GM_ADDR y) { Run<float, float, 0, 0>(x, y); }
extern "C" __global__ __aicore__ void expsub_f16_even(GM_ADDR x, GM_ADDR y) { Run<half, float, 0, 0>(x, y); }
extern "C" __global__ __aicore__ void expsub_f16_odd(GM_ADDR x, GM_ADDR y) { Run<half, float, 0, 1>(x, y); }
extern "C" __global__ __aicore__ void block_max_f32(GM_ADDR x, GM_ADDR y) { Run<float, float, 1, 44>(x, y); }
extern "C" __global__ __aicore__ void block_min_f16(GM_ADDR x, GM_ADDR y) { Run<half, half, 2, 128>(x, y); }
extern "C" __global__ __aicore__ void load_unaligned(GM_ADDR x, GM_ADDR y) { Run<float, float, 3, 0>(x, y); }
"""

kernels = shared_module.register(KERNEL, "ascend950")


@pytest.fixture(scope="module")
def module():
    devkit_tree.require()
    return kernels()


def _run(module, kernel, x: np.ndarray, out_dtype) -> np.ndarray:
    y = np.full(256 // np.dtype(out_dtype).itemsize, 9, out_dtype)
    module.launch(kernel, 1, x.view(np.uint8).copy(), y.view(np.uint8))
    return y


@pytest.mark.parametrize("kernel, dtype, part", [("expsub_f32", np.float32, None),
                                                 ("expsub_f16_even", np.float16, 0),
                                                 ("expsub_f16_odd", np.float16, 1)])
def test_expsub_is_exp_of_the_difference_in_float(module, kernel, dtype, part):
    n = 256 // np.dtype(dtype).itemsize
    x = (np.random.default_rng(3).standard_normal(2 * n) * 2).astype(dtype)
    a, b = x[:n].astype(np.float32), x[n:].astype(np.float32)
    if part is not None:
        a, b = a[part::2], b[part::2]
    y = _run(module, kernel, x, np.float32)
    np.testing.assert_allclose(y, np.exp(a - b), rtol=1e-6)


def test_block_max_takes_the_active_lanes_of_each_block_and_zeroes_the_rest(module):
    x = np.random.default_rng(4).standard_normal(128).astype(np.float32)
    y = _run(module, "block_max_f32", x, np.float32)
    want = np.zeros(64, np.float32)
    lanes = x[:64]
    for k in range(8):                      # 8 floats per block; the first 44 lanes are active
        active = lanes[k * 8:min((k + 1) * 8, 44)]
        if active.size:
            want[k] = active.max()
    np.testing.assert_array_equal(y, want)


def test_block_min_of_halves(module):
    x = np.random.default_rng(5).standard_normal(256).astype(np.float16)
    y = _run(module, "block_min_f16", x, np.float16)
    want = np.zeros(128, np.float16)
    want[:8] = x[:128].reshape(8, 16).min(axis=1)
    np.testing.assert_array_equal(y, want)


def test_an_unaligned_load_reads_a_whole_register_from_its_address(module):
    x = np.arange(128, dtype=np.float32) * 1.5
    y = _run(module, "load_unaligned", x, np.float32)
    np.testing.assert_array_equal(y, x[3:67])
