"""dav_3510 address registers (dav3510/vreg.h): the library's Reg::CreateAddrReg<T>(index0, stride0, ...) is,
in its CPU-debug build, VagCpuSim(sizeof(T), index0, stride0, ...), and LoadAlign / StoreAlign at an AddrReg
are vld / vst at sum(index_k * stride_k) elements past the UB address. ops-nn softplus_v2_grad (and 60 other
op folders' arch35 kernels) stopped at `VagCpuSim, vld, vst`. Checked against numpy: blocks moved to other
places by a two-index address (so both strides count), and a half copy with a masked tail."""
from __future__ import annotations

import numpy as np

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

// x: 4 rows of 2 blocks of 64 floats; y: 2 rows of 4 blocks. y block (c, r) = 2 * x block (r, c).
__simd_vf__ inline void MoveBlocks(__ubuf__ float* y, __ubuf__ float* x)
{
    Reg::RegTensor<float> v;
    Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    for (uint16_t r = 0; r < 4; ++r) {
        for (uint16_t c = 0; c < 2; ++c) {
            Reg::AddrReg from = Reg::CreateAddrReg<float>(r, 128, c, 64);
            Reg::AddrReg to = Reg::CreateAddrReg<float>(c, 256, r, 64);
            Reg::LoadAlign(v, x, from);
            Reg::Muls(v, v, 2.0f, all);
            Reg::StoreAlign(y, v, to, all);
        }
    }
}

// n halves copied register by register (128 per register), the last one masked to what is left.
__simd_vf__ inline void CopyByAddress(__ubuf__ half* y, __ubuf__ half* x, uint32_t n)
{
    Reg::RegTensor<half> v;
    uint32_t left = n;
    for (uint16_t i = 0; i < (n + 127) / 128; ++i) {
        Reg::AddrReg a = Reg::CreateAddrReg<half>(i, 128);
        Reg::MaskReg m = Reg::UpdateMask<half>(left);
        Reg::LoadAlign(v, x, a);
        Reg::StoreAlign(y, v, a, m);
    }
}

template <typename T, bool HALF>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y) {
    constexpr uint32_t N = 512;     // elements of x and y
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T*)x, N);
    yg.SetGlobalBuffer((__gm__ T*)y, N);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * N * sizeof(T));
    LocalTensor<T> xl = buf.Get<T>();
    LocalTensor<T> yl = xl[N];
    DataCopy(xl, xg, N);
    DataCopy(yl, yg, N);
    PipeBarrier<PIPE_ALL>();
    if constexpr (HALF)
        asc_vf_call<CopyByAddress>((__ubuf__ T*)yl.GetPhyAddr(), (__ubuf__ T*)xl.GetPhyAddr(), N - 56);
    else
        asc_vf_call<MoveBlocks>((__ubuf__ T*)yl.GetPhyAddr(), (__ubuf__ T*)xl.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, N);
}
extern "C" __global__ __aicore__ void transpose_blocks(GM_ADDR x, GM_ADDR y) { Run<float, false>(x, y); }
extern "C" __global__ __aicore__ void copy_half_tail(GM_ADDR x, GM_ADDR y) { Run<half, true>(x, y); }
"""

kernels = shared_module.register(KERNEL, "ascend950")


def _module():
    devkit_tree.require()
    return kernels()


def test_a_two_index_address_register_places_each_block_by_both_strides():
    x = np.random.default_rng(7).standard_normal(512).astype(np.float32)
    y = np.full(512, -1, np.float32)
    _module().launch("transpose_blocks", 1, x, y)
    want = (2 * x).reshape(4, 2, 64).transpose(1, 0, 2).reshape(-1)    # block (r, c) -> (c, r)
    np.testing.assert_array_equal(y, want)


def test_a_half_copy_by_address_register_stops_at_its_masked_tail():
    x = np.random.default_rng(8).standard_normal(512).astype(np.float16)
    y = np.full(512, 7, np.float16)
    _module().launch("copy_half_tail", 1, x, y)
    want = np.concatenate([x[:456], np.full(56, 7, np.float16)])
    np.testing.assert_array_equal(y, want)
