"""dav_3510 vgatherb (dav3510/vblock.h) through the library's Reg::GatherB: block k of the register (32 bytes)
comes from UB at the base address plus lane k of a uint32 index register, a byte offset; the mask selects
whole blocks, as for the block-strided loads. opbase's atvoss broadcast schedule reaches it through the
library's Broadcast (ops-math add on ascend950 with a broadcast operand stopped at `vgatherb`). Checked
against numpy, as the library's reg_load_gather example (scenario 2) computes its golden."""
from __future__ import annotations

import numpy as np

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void GatherBlocks(__ubuf__ half* dst, __ubuf__ half* src, __ubuf__ uint32_t* index, uint32_t count)
{
    Reg::RegTensor<half> r;
    Reg::RegTensor<uint32_t> idx;
    Reg::MaskReg m = Reg::UpdateMask<half>(count);
    Reg::LoadAlign(r, dst);                       // the register starts as dst: an unselected block keeps it
    Reg::LoadAlign(idx, index);
    Reg::GatherB(r, src, idx, m);
    Reg::MaskReg all = Reg::CreateMask<half, Reg::MaskPattern::ALL>();
    Reg::StoreAlign(dst, r, all);
}

extern "C" __global__ __aicore__ void gatherb(GM_ADDR src, GM_ADDR index, GM_ADDR dst) {
    GlobalTensor<half> sg, dg;
    GlobalTensor<uint32_t> ig;
    sg.SetGlobalBuffer((__gm__ half*)src, 1024);
    ig.SetGlobalBuffer((__gm__ uint32_t*)index, 64);
    dg.SetGlobalBuffer((__gm__ half*)dst, 128);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048 + 256 + 256);
    LocalTensor<half> sl = buf.Get<half>(), dl = sl[1024];
    LocalTensor<uint32_t> il = buf.Get<uint32_t>()[(2048 + 256) / 4];
    DataCopy(sl, sg, 1024);
    DataCopy(il, ig, 64);
    DataCopy(dl, dg, 128);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<GatherBlocks>((__ubuf__ half*)dl.GetPhyAddr(), (__ubuf__ half*)sl.GetPhyAddr(),
                              (__ubuf__ uint32_t*)il.GetPhyAddr(), 100);
    PipeBarrier<PIPE_ALL>();
    DataCopy(dg, dl, 128);
}
"""

kernels = shared_module.register(KERNEL, "ascend950")


def test_gatherb_loads_each_block_from_its_byte_offset_and_keeps_unselected_blocks():
    devkit_tree.require()
    rng = np.random.default_rng(5)
    src = rng.uniform(-1, 1, 1024).astype(np.float16)
    blocks = np.array([63, 0, 17, 17, 5, 40, 2, 9], np.uint32)          # repeats and both ends included
    index = np.zeros(64, np.uint32)
    index[:8] = blocks * 32
    index[8:] = 0xFFFFFFFF                                               # lanes past 8 are not read
    dst = rng.uniform(-1, 1, 128).astype(np.float16)
    want = dst.copy()
    for k, b in enumerate(blocks[:7]):                # 100 active half lanes: blocks 0..6 (block 6 partly)
        want[16 * k:16 * (k + 1)] = src[16 * b:16 * (b + 1)]
    kernels().launch("gatherb", 1, src, index, dst)
    np.testing.assert_array_equal(dst.view(np.uint16), want.view(np.uint16))
