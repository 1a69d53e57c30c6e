"""dav_3510 vmula (dav3510/valu.h) through the library's Reg::MulAddDst: dst = dst + src0 * src1 on the
active lanes, the rest zero (ZEROING, the only mode the library allows). Integer lanes wrap, checked
bit-exact against numpy; float lanes are not modelled (fused or not is not pinned down) and fail to link,
the report naming vmula with its float types."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.errors import AscgenError
from ascgen.runtime.loader import load
from tests import devkit_tree

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void Mula(__ubuf__ T* d, __ubuf__ T* a, __ubuf__ T* b, uint32_t count)
{
    Reg::RegTensor<T> rd, ra, rb;
    Reg::MaskReg m = Reg::UpdateMask<T>(count);
    Reg::LoadAlign(rd, d);
    Reg::LoadAlign(ra, a);
    Reg::LoadAlign(rb, b);
    Reg::MulAddDst(rd, ra, rb, m);
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::StoreAlign(d, rd, all);
}

template <typename T>
__aicore__ inline void Run(GM_ADDR d, GM_ADDR a, GM_ADDR b, uint32_t count) {
    constexpr uint32_t n = 256 / sizeof(T);
    GlobalTensor<T> dg, ag, bg;
    dg.SetGlobalBuffer((__gm__ T*)d, n);
    ag.SetGlobalBuffer((__gm__ T*)a, n);
    bg.SetGlobalBuffer((__gm__ T*)b, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 768);
    LocalTensor<T> dl = buf.Get<T>(), al = dl[n], bl = dl[2 * n];
    DataCopy(dl, dg, n);
    DataCopy(al, ag, n);
    DataCopy(bl, bg, n);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<Mula<T>>((__ubuf__ T*)dl.GetPhyAddr(), (__ubuf__ T*)al.GetPhyAddr(), (__ubuf__ T*)bl.GetPhyAddr(), count);
    PipeBarrier<PIPE_ALL>();
    DataCopy(dg, dl, n);
}

extern "C" __global__ __aicore__ void mula_i32(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<int32_t>(d, a, b, 50); }
extern "C" __global__ __aicore__ void mula_u16(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<uint16_t>(d, a, b, 100); }
"""
FLOAT = KERNEL.replace("Run<uint16_t>(d, a, b, 100)", "Run<float>(d, a, b, 10)")


@pytest.mark.parametrize("kernel,dtype,count", [("mula_i32", np.int32, 50), ("mula_u16", np.uint16, 100)])
def test_integer_mula_accumulates_wrapping_and_zeroes_inactive_lanes(kernel, dtype, count):
    devkit_tree.require()
    rng = np.random.default_rng(7)
    info = np.iinfo(dtype)
    n = 256 // np.dtype(dtype).itemsize
    d, a, b = (rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True) for _ in range(3))
    want = ((d.astype(np.uint64) + a.astype(np.uint64) * b.astype(np.uint64)) % (1 << (8 * d.itemsize)))
    want = want.astype(np.dtype(dtype).str.replace("i", "u")).view(dtype)
    want[count:] = 0
    out = d.copy()
    load(KERNEL, "ascend950", backend="devkit", filename="mula.cpp").launch(kernel, 1, out, a, b)
    np.testing.assert_array_equal(out, want)


def test_float_mula_is_refused_naming_the_form():
    devkit_tree.require()
    z = np.zeros(64, np.float32)
    with pytest.raises(AscgenError, match=r"intrinsic vmula \[\(RegTensor<float>, RegTensor<float>, RegTensor<float>, vector_bool, CpuMode=2\)\]"):
        load(FLOAT, "ascend950", backend="devkit", filename="mula_f.cpp").launch("mula_u16", 1, z, z.copy(), z.copy())
