"""dav_3510 vsldb / vsstb (dav3510/vblock.h) through the library's Reg::LoadAlign / Reg::StoreAlign with
DataCopyMode::DATA_BLOCK_COPY: a register's 8 blocks of 32 bytes move from / to UB at a block stride, the
mask selecting whole blocks (a block with any predicate bit set moves), the post-update forms stepping the
address by repeatStride blocks. Checked bit-exact against numpy, for float and half lanes."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
using Reg::DataCopyMode;
using Reg::PostLiteral;

template <typename T>
__simd_vf__ inline void Blocks(__ubuf__ T* y, __ubuf__ T* x, uint32_t count)
{
    constexpr uint32_t perBlock = 32 / sizeof(T);
    Reg::RegTensor<T> r0, r1;
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::MaskReg part = Reg::UpdateMask<T>(count);
    Reg::Duplicate(r0, T(-1));
    __ubuf__ T* p = x;
    // blocks at x + 3k blocks, 7 of 8 selected; then p steps 2 blocks on
    Reg::LoadAlign<T, DataCopyMode::DATA_BLOCK_COPY, PostLiteral::POST_MODE_UPDATE>(r0, p, 3, 2, part);
    Reg::LoadAlign<T, DataCopyMode::DATA_BLOCK_COPY, PostLiteral::POST_MODE_UPDATE>(r1, p, 1, 0, all);
    Reg::StoreAlign<T, DataCopyMode::DATA_BLOCK_COPY>(y, r0, 2, part);       // blocks at y + 2k blocks
    __ubuf__ T* q = y + 64 * perBlock;
    Reg::StoreAlign<T, DataCopyMode::DATA_BLOCK_COPY, PostLiteral::POST_MODE_UPDATE>(q, r1, 1, 8, all);
    Reg::StoreAlign<T, DataCopyMode::DATA_BLOCK_COPY, PostLiteral::POST_MODE_UPDATE>(q, r1, 1, 8, all);
}

template <typename T>
__aicore__ inline void Run(GM_ADDR y, GM_ADDR x) {
    constexpr uint32_t n = 4096 / sizeof(T);
    GlobalTensor<T> yg, xg;
    yg.SetGlobalBuffer((__gm__ T*)y, n);
    xg.SetGlobalBuffer((__gm__ T*)x, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    LocalTensor<T> yl = buf.Get<T>(), xl = yl[n];
    DataCopy(yl, yg, n);
    DataCopy(xl, xg, n);
    PipeBarrier<PIPE_ALL>();
    // 6.5 blocks of lanes active: block 6 half selected (moves), block 7 not at all
    asc_vf_call<Blocks<T>>((__ubuf__ T*)yl.GetPhyAddr(), (__ubuf__ T*)xl.GetPhyAddr(), 13 * 16 / sizeof(T));
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, n);
}

extern "C" __global__ __aicore__ void blocks_f32(GM_ADDR y, GM_ADDR x) { Run<float>(y, x); }
extern "C" __global__ __aicore__ void blocks_f16(GM_ADDR y, GM_ADDR x) { Run<half>(y, x); }
"""

kernels = shared_module.register(KERNEL, "ascend950")


def _expected(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    e = 32 // x.itemsize                                   # elements per 32-byte block
    block = lambda a, k: a[k * e:(k + 1) * e]              # noqa: E731
    r0 = np.full(8 * e, -1, x.dtype)                       # block 7 unselected: keeps its value
    for k in range(7):
        r0[k * e:(k + 1) * e] = block(x, 3 * k)
    r1 = x[2 * e:10 * e]                                   # p advanced 2 blocks by the first load
    want = y.copy()
    for k in range(7):                                     # block 7 unselected: UB left alone
        want[2 * k * e:(2 * k + 1) * e] = r0[k * e:(k + 1) * e]
    want[64 * e:72 * e] = r1
    want[72 * e:80 * e] = r1                               # q advanced 8 blocks by the first store
    return want


@pytest.mark.parametrize("kernel,dtype", [("blocks_f32", np.float32), ("blocks_f16", np.float16)])
def test_block_strided_load_and_store(kernel, dtype):
    devkit_tree.require()
    rng = np.random.default_rng(5)
    n = 4096 // np.dtype(dtype).itemsize
    x = rng.uniform(-100, 100, n).astype(dtype)
    y = rng.uniform(-100, 100, n).astype(dtype)
    want = _expected(y, x)
    out = y.copy()
    kernels().launch(kernel, 1, out, x)
    np.testing.assert_array_equal(out.view(np.uint8), want.view(np.uint8))
