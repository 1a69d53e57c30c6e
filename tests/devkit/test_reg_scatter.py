"""dav_3510 vscatter (dav3510/vblock.h) through the library's Reg::Scatter: dst[index lane i] = lane i for the
active lanes, the index counting elements of the destination's type; other elements keep what UB held.
ops-nn swi_glu_grad on ascend950 rearranges its output through it (RearrangeUbOutByScatter). Checked
against numpy's dst[index] = src, on distinct indices (the order of two lanes writing one element is not
documented). The kernel also instantiates a form of other widths that never runs: it must build."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T, typename I>
__simd_vf__ inline void ScatterLanes(__ubuf__ T* dst, __ubuf__ T* src, __ubuf__ I* index, uint32_t count)
{
    Reg::RegTensor<T> r;
    Reg::RegTensor<I> idx;
    Reg::MaskReg m = Reg::UpdateMask<T>(count);
    Reg::LoadAlign(r, src);
    Reg::LoadAlign(idx, index);
    Reg::Scatter(dst, r, idx, m);
}

template <typename T, typename I>
__aicore__ inline void Run(GM_ADDR dst, GM_ADDR src, GM_ADDR index, uint32_t count) {
    constexpr uint32_t n = 256 / sizeof(T);
    GlobalTensor<T> sg, dg;
    GlobalTensor<I> ig;
    dg.SetGlobalBuffer((__gm__ T*)dst, 512);
    sg.SetGlobalBuffer((__gm__ T*)src, n);
    ig.SetGlobalBuffer((__gm__ I*)index, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512 * sizeof(T) + 512);
    LocalTensor<T> dl = buf.Get<T>(), sl = dl[512];
    LocalTensor<I> il = buf.Get<I>()[(512 * sizeof(T) + 256) / sizeof(I)];
    DataCopy(dl, dg, 512);
    DataCopy(sl, sg, n);
    DataCopy(il, ig, n);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<ScatterLanes<T, I>>((__ubuf__ T*)dl.GetPhyAddr(), (__ubuf__ T*)sl.GetPhyAddr(),
                                    (__ubuf__ I*)il.GetPhyAddr(), count);
    PipeBarrier<PIPE_ALL>();
    DataCopy(dg, dl, 512);
}

// A form of other widths (b8 lanes, u16 indices), instantiated but never run, as the library's Scatter is in
// ops-nn dynamic_mx_quant: it must not fail the build (it was a static_assert; the declared-only form it is
// now would be named at link, were it reachable). decltype instantiates the body without emitting it.
template <typename T, typename I>
__aicore__ inline auto ScatterOtherWidths(__ubuf__ T* dst, __ubuf__ I* index)
{
    Reg::RegTensor<T> r;
    Reg::RegTensor<I> idx;
    Reg::MaskReg m = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::Scatter(dst, r, idx, m);
    return 0;
}
using NeverRun = decltype(ScatterOtherWidths<uint8_t, uint16_t>(nullptr, nullptr));

extern "C" __global__ __aicore__ void scatter_f32(GM_ADDR d, GM_ADDR s, GM_ADDR i) { Run<float, uint32_t>(d, s, i, 61); }
extern "C" __global__ __aicore__ void scatter_f16(GM_ADDR d, GM_ADDR s, GM_ADDR i) { Run<half, uint16_t>(d, s, i, 100); }
"""

kernels = shared_module.register(KERNEL, "ascend950")


@pytest.mark.parametrize("kernel,dtype,itype,count", [("scatter_f32", np.float32, np.uint32, 61),
                                                      ("scatter_f16", np.float16, np.uint16, 100)])
def test_scatter_writes_each_active_lane_at_its_element_index(kernel, dtype, itype, count):
    devkit_tree.require()
    rng = np.random.default_rng(12)
    n = 256 // np.dtype(dtype).itemsize
    src = rng.uniform(-1, 1, n).astype(dtype)
    index = rng.permutation(512)[:n].astype(itype)
    index[0] = 511                                        # the last element
    dst = rng.uniform(-1, 1, 512).astype(dtype)
    want = dst.copy()
    want[index[:count]] = src[:count]                     # inactive lanes write nothing
    kernels().launch(kernel, 1, dst, src, index)
    np.testing.assert_array_equal(dst, want)
