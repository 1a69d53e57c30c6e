"""dav_3510 vgather2 (dav3510/vblock.h) through the library's Reg::Gather: lane i is src[index lane i], the
index counting elements of the source's type, inactive lanes zero. opbase's atvoss broadcast (ops-math add
on ascend950, a last-axis broadcast) reaches it through the library's Broadcast (BrcLastGatherTwo). Checked
against numpy's x[index], the golden of the library's reg_load_gather example (scenario 1)."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T, typename I>
__simd_vf__ inline void GatherLanes(__ubuf__ T* dst, __ubuf__ T* src, __ubuf__ I* index, uint32_t count)
{
    Reg::RegTensor<T> r;
    Reg::RegTensor<I> idx;
    Reg::MaskReg m = Reg::UpdateMask<T>(count);
    Reg::LoadAlign(idx, index);
    Reg::Gather(r, src, idx, m);
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::StoreAlign(dst, r, all);
}

template <typename T, typename I>
__aicore__ inline void Run(GM_ADDR src, GM_ADDR index, GM_ADDR dst, uint32_t count) {
    constexpr uint32_t n = 256 / sizeof(T);
    GlobalTensor<T> sg, dg;
    GlobalTensor<I> ig;
    sg.SetGlobalBuffer((__gm__ T*)src, 1024);
    ig.SetGlobalBuffer((__gm__ I*)index, n);
    dg.SetGlobalBuffer((__gm__ T*)dst, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(T) + 512);
    LocalTensor<T> sl = buf.Get<T>(), dl = sl[1024];
    LocalTensor<I> il = buf.Get<I>()[(1024 * sizeof(T) + 256) / sizeof(I)];
    DataCopy(sl, sg, 1024);
    DataCopy(il, ig, n);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<GatherLanes<T, I>>((__ubuf__ T*)dl.GetPhyAddr(), (__ubuf__ T*)sl.GetPhyAddr(),
                                   (__ubuf__ I*)il.GetPhyAddr(), count);
    PipeBarrier<PIPE_ALL>();
    DataCopy(dg, dl, n);
}

extern "C" __global__ __aicore__ void gather_f16(GM_ADDR s, GM_ADDR i, GM_ADDR d) { Run<half, uint16_t>(s, i, d, 100); }
extern "C" __global__ __aicore__ void gather_f32(GM_ADDR s, GM_ADDR i, GM_ADDR d) { Run<float, uint32_t>(s, i, d, 61); }
"""

kernels = shared_module.register(KERNEL, "ascend950")


@pytest.mark.parametrize("kernel,dtype,itype,count", [("gather_f16", np.float16, np.uint16, 100),
                                                      ("gather_f32", np.float32, np.uint32, 61)])
def test_gather_reads_each_lane_at_its_element_index_and_zeroes_inactive_lanes(kernel, dtype, itype, count):
    devkit_tree.require()
    rng = np.random.default_rng(9)
    n = 256 // np.dtype(dtype).itemsize
    src = rng.uniform(-1, 1, 1024).astype(dtype)
    index = rng.integers(0, 1024, n).astype(itype)
    index[:3] = [1023, 0, 0]                                  # the last element, and one index twice
    want = src[index]
    want[count:] = 0
    out = np.full(n, np.nan, dtype)
    kernels().launch(kernel, 1, src, index, out)
    np.testing.assert_array_equal(out, want)
