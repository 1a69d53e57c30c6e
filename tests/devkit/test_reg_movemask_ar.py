"""dav_3510 movp_b16 / movp_b32 (dav3510/vpred.h) and get_ar (dav3510/vreg.h), which ops-math angle_v2's
level-0 Compare / Select / GatherMask reach on ascend950.

* Reg::MoveMask<T>() after SetVectorMask(hi, lo): a b16 lane i follows bit i of {hi, lo}, a b32 lane bit i
  of lo (the API reference); a masked StoreAlign shows which lanes are on.
* The level-0 GatherMask in reduce mode with the all-elements pattern keeps `mask` elements per repeat and
  returns their count, which the library reads from AR (GetSpr<AR>() / sizeof(T)).
Checked bit-exact against numpy."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

HI, LO = 0x0123456789ABCDEF, 0xF0E1D2C3B4A59687

KERNEL = f"""
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void Moved(__ubuf__ T* y, __ubuf__ T* x)
{{
    Reg::RegTensor<T> r;
    Reg::MaskReg m = Reg::MoveMask<T>();
    Reg::LoadAlign(r, x);
    Reg::StoreAlign(y, r, m);
}}

template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y) {{
    constexpr uint32_t n = 256 / sizeof(T);
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T*)x, n);
    yg.SetGlobalBuffer((__gm__ T*)y, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<T> xl = buf.Get<T>(), yl = xl[n];
    DataCopy(xl, xg, n);
    DataCopy(yl, yg, n);
    PipeBarrier<PIPE_ALL>();
    SetVectorMask<T, MaskMode::NORMAL>({HI:#x}ull, {LO:#x}ull);
    asc_vf_call<Moved<T>>((__ubuf__ T*)yl.GetPhyAddr(), (__ubuf__ T*)xl.GetPhyAddr());
    SetVectorMask<T, MaskMode::NORMAL>(FULL_MASK, FULL_MASK);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, n);
}}
extern "C" __global__ __aicore__ void moved_f16(GM_ADDR x, GM_ADDR y) {{ Run<half>(x, y); }}
extern "C" __global__ __aicore__ void moved_f32(GM_ADDR x, GM_ADDR y) {{ Run<float>(x, y); }}

// 2 repeats of 100 floats each, the second starting 64 floats on (src0RepeatStride 8 blocks)
extern "C" __global__ __aicore__ void gather_all(GM_ADDR x, GM_ADDR y, GM_ADDR count) {{
    GlobalTensor<float> xg, yg;
    GlobalTensor<uint64_t> cg;
    xg.SetGlobalBuffer((__gm__ float*)x, 256);
    yg.SetGlobalBuffer((__gm__ float*)y, 256);
    cg.SetGlobalBuffer((__gm__ uint64_t*)count, 4);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<float> xl = buf.Get<float>(), yl = xl[256];
    DataCopy(xl, xg, 256);
    DataCopy(yl, yg, 256);
    PipeBarrier<PIPE_ALL>();
    GatherMaskParams params;
    params.repeatTimes = 2;
    params.src0BlockStride = 1;
    params.src0RepeatStride = 8;
    uint64_t kept = 0;
    GatherMask(yl, xl, 7, true, 100, params, kept);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, 256);
    cg.SetValue(0, kept);
}}
"""

kernels = shared_module.register(KERNEL, "ascend950")


@pytest.mark.parametrize("kernel,dtype", [("moved_f16", np.float16), ("moved_f32", np.float32)])
def test_movemask_reads_the_vector_mask_registers(kernel, dtype):
    devkit_tree.require()
    n = 256 // np.dtype(dtype).itemsize
    rng = np.random.default_rng(4)
    x = rng.uniform(-9, 9, n).astype(dtype)
    y = np.full(n, 42, dtype)
    bits = (LO | HI << 64) if n == 128 else LO             # b32: MASK0 only
    on = np.array([(bits >> i) & 1 for i in range(n)], bool)
    want = np.where(on, x, y)
    kernels().launch(kernel, 1, x, y)
    np.testing.assert_array_equal(y, want)


def test_gathermask_reduce_mode_counts_through_ar():
    devkit_tree.require()
    x = np.arange(256, dtype=np.float32) * 0.5 - 7
    y = np.full(256, -1, np.float32)
    count = np.zeros(4, np.uint64)
    kernels().launch("gather_all", 1, x, y, count)
    want = y.copy()
    want[:200] = np.concatenate([x[0:100], x[64:164]])
    assert int(count[0]) == 200
    np.testing.assert_array_equal(y, want)
