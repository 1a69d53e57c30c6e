"""dav_3510 vunpack / vpack (dav3510/vconv.h) through the library's Reg::UnPack / Reg::Pack: UnPack widens the
lower (LOWEST) or upper (HIGHEST) half of the source lanes, sign-extending signed lanes and zero-extending
unsigned ones; Pack keeps the low half of every lane, packed into the lower or upper half of the destination,
the rest zero. ops-math angle_v2 stopped at `vunpack` on ascend950. Checked bit-exact against numpy."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename W, typename N, Reg::HighLowPart P>
__simd_vf__ inline void Widen(__ubuf__ W* y, __ubuf__ N* x)
{
    Reg::RegTensor<N> a;
    Reg::RegTensor<W> b;
    Reg::MaskReg all = Reg::CreateMask<W, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(a, x);
    Reg::UnPack<W, N, P>(b, a);
    Reg::StoreAlign(y, b, all);
}
template <typename N, typename W, Reg::HighLowPart P>
__simd_vf__ inline void Narrow(__ubuf__ N* y, __ubuf__ W* x)
{
    Reg::RegTensor<W> a;
    Reg::RegTensor<N> b;
    Reg::MaskReg all = Reg::CreateMask<N, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(a, x);
    Reg::Pack<N, W, P>(b, a);
    Reg::StoreAlign(y, b, all);
}

template <typename Y, typename X, bool WIDEN, Reg::HighLowPart P>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y) {
    GlobalTensor<X> xg;
    GlobalTensor<Y> yg;
    xg.SetGlobalBuffer((__gm__ X*)x, 256 / sizeof(X));
    yg.SetGlobalBuffer((__gm__ Y*)y, 256 / sizeof(Y));
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<X> xl = buf.Get<X>();
    LocalTensor<Y> yl = buf.Get<Y>()[256 / sizeof(Y)];
    DataCopy(xl, xg, 256 / sizeof(X));
    PipeBarrier<PIPE_ALL>();
    if constexpr (WIDEN)
        asc_vf_call<Widen<Y, X, P>>((__ubuf__ Y*)yl.GetPhyAddr(), (__ubuf__ X*)xl.GetPhyAddr());
    else
        asc_vf_call<Narrow<Y, X, P>>((__ubuf__ Y*)yl.GetPhyAddr(), (__ubuf__ X*)xl.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, 256 / sizeof(Y));
}
using Reg::HighLowPart;
extern "C" __global__ __aicore__ void unpack_s16_lo(GM_ADDR x, GM_ADDR y) { Run<int32_t, int16_t, true, HighLowPart::LOWEST>(x, y); }
extern "C" __global__ __aicore__ void unpack_s16_hi(GM_ADDR x, GM_ADDR y) { Run<int32_t, int16_t, true, HighLowPart::HIGHEST>(x, y); }
extern "C" __global__ __aicore__ void unpack_u8_hi(GM_ADDR x, GM_ADDR y) { Run<uint16_t, uint8_t, true, HighLowPart::HIGHEST>(x, y); }
extern "C" __global__ __aicore__ void pack_s32_lo(GM_ADDR x, GM_ADDR y) { Run<uint16_t, int32_t, false, HighLowPart::LOWEST>(x, y); }
extern "C" __global__ __aicore__ void pack_u16_hi(GM_ADDR x, GM_ADDR y) { Run<uint8_t, uint16_t, false, HighLowPart::HIGHEST>(x, y); }
"""

CASES = {   # kernel: (source dtype, result dtype, widen, part)
    "unpack_s16_lo": (np.int16, np.int32, True, 0), "unpack_s16_hi": (np.int16, np.int32, True, 1),
    "unpack_u8_hi": (np.uint8, np.uint16, True, 1),
    "pack_s32_lo": (np.int32, np.uint16, False, 0), "pack_u16_hi": (np.uint16, np.uint8, False, 1),
}

kernels = shared_module.register(KERNEL, "ascend950")


@pytest.mark.parametrize("kernel", list(CASES))
def test_pack_and_unpack_match_numpy(kernel):
    devkit_tree.require()
    src, dst, widen, part = CASES[kernel]
    info = np.iinfo(src)
    x = np.random.default_rng(6).integers(info.min, info.max, 256 // np.dtype(src).itemsize, dtype=src,
                                          endpoint=True)
    n_out = 256 // np.dtype(dst).itemsize
    if widen:
        want = x[part * n_out:(part + 1) * n_out].astype(dst)          # sign- or zero-extended
    else:
        low = x.astype(np.int64) & int(np.iinfo(dst).max)               # the low half of each lane
        want = np.zeros(n_out, dst)
        want[part * x.size:(part + 1) * x.size] = low.astype(dst)
    y = np.full(n_out, 5, dst)
    kernels().launch(kernel, 1, x, y)
    np.testing.assert_array_equal(y, want)
