"""dav_c220 vcmpv / vcmpvs (cmpsel.h) compare every element of their iterations whatever the vector mask: the
library never sets one for them (VcmpvImpl / VcmpvsImpl discard their mask argument) and its level-2 Compares
requires whole iterations. The model applied the mask an earlier instruction left, so ops-math right_shift's
`CompareScalar` after a masked `ShiftRight` found no lane equal to 1 and its outputs were silently wrong (2
`wrong` in the tenth shard). Checked against numpy after a level-0 op that leaves a one-lane mask."""
from __future__ import annotations

import numpy as np

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void compare_after_a_masked_op(GM_ADDR bits, GM_ADDR y)
{
    GlobalTensor<int32_t> yg;
    GlobalTensor<uint8_t> bg;
    yg.SetGlobalBuffer((__gm__ int32_t*)y, 64);
    bg.SetGlobalBuffer((__gm__ uint8_t*)bits, 128);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<int32_t> yl = buf.Get<int32_t>(), tmp = yl[64];
    LocalTensor<uint8_t> bl = buf.Get<uint8_t>()[512];
    DataCopy(yl, yg, 64);
    PipeBarrier<PIPE_ALL>();
    uint64_t oneLane[2] = {1, 0};                   // a level-0 op that leaves the mask at lane 0 only
    Adds(tmp, yl, 0, oneLane, 1, {1, 1, 8, 8});
    PipeBarrier<PIPE_ALL>();
    for (int32_t v = 0; v < 4; ++v) {
        CompareScalar(bl[32 * v], yl, v, CMPMODE::EQ, 64);  // lanes equal to v, all 64 of them (8 bytes of 32)
        PipeBarrier<PIPE_ALL>();
    }
    DataCopy(bg, bl, 128);
}
"""

kernels = shared_module.register(KERNEL, "ascend910b")


def test_compare_scalar_sees_every_lane_whatever_mask_an_earlier_op_left():
    devkit_tree.require()
    y = (np.arange(64) % 4).astype(np.int32)
    bits = np.zeros(128, np.uint8)
    kernels().launch("compare_after_a_masked_op", 1, bits, y)
    got = np.unpackbits(bits.reshape(4, 32)[:, :8], axis=1, bitorder="little")
    want = np.stack([(y == v) for v in range(4)]).astype(np.uint8)
    np.testing.assert_array_equal(got, want)
