"""dav_3510 vsts with DIST_PACK4_B32 (dav3510/vreg.h) through the library's Reg::StoreAlign: the lowest byte of
each active 32-bit lane, packed into VL/4 bytes, the bytes of inactive lanes left as UB held them. The
library's int8 quantisation stores its results so (asc-devkit ascend_quant_3510_impl.h), and ops-nn
ascend_quant_v2 on ascend950 stopped at `vsts ... DistVST=12`. Checked against numpy."""
from __future__ import annotations

import numpy as np

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void Pack4(__ubuf__ uint8_t* y, __ubuf__ uint8_t* x, uint32_t count)
{
    Reg::RegTensor<uint8_t> r;
    Reg::MaskReg m = Reg::UpdateMask<uint32_t>(count);
    Reg::LoadAlign(r, x);
    Reg::StoreAlign<uint8_t, Reg::StoreDist::DIST_PACK4_B32>(y, r, m);
}

extern "C" __global__ __aicore__ void pack4(GM_ADDR x, GM_ADDR y) {
    GlobalTensor<uint8_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ uint8_t*)x, 256);
    yg.SetGlobalBuffer((__gm__ uint8_t*)y, 128);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<uint8_t> xl = buf.Get<uint8_t>(), yl = xl[256];
    DataCopy(xl, xg, 256);
    DataCopy(yl, yg, 128);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<Pack4>((__ubuf__ uint8_t*)yl.GetPhyAddr(), (__ubuf__ uint8_t*)xl.GetPhyAddr(), 50);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, 128);
}
"""

kernels = shared_module.register(KERNEL, "ascend950")


def test_pack4_stores_the_lowest_byte_of_each_active_32_bit_lane():
    devkit_tree.require()
    rng = np.random.default_rng(8)
    x = rng.integers(0, 256, 256, dtype=np.uint8)
    y = rng.integers(0, 256, 128, dtype=np.uint8)
    want = y.copy()
    want[:50] = x[0:200:4]                       # lane i's lowest byte (little-endian: byte 4i)
    kernels().launch("pack4", 1, x, y)
    np.testing.assert_array_equal(y, want)
