"""dav_3510 register loads the quantising kernels use (runtime/devkit/include/ascgen_devkit/dav3510/
vreg.h), through the library's Reg::LoadAlign: DIST_E2B_B16 / DIST_E2B_B32 put 8 elements in a register,
each broadcast to every lane of one 32-byte block (the mx-quant ops load their per-block scales so), in the
plain and the post-update forms; checked against numpy."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.errors import AscgenError
from ascgen.runtime.loader import load
from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void E2B(__ubuf__ half* h, __ubuf__ float* f, __ubuf__ half* ho, __ubuf__ float* fo)
{
    Reg::RegTensor<half> a;
    Reg::RegTensor<float> b;
    Reg::MaskReg all16 = Reg::CreateMask<half, Reg::MaskPattern::ALL>();
    Reg::MaskReg all32 = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    for (uint16_t i = 0; i < 2; ++i) {                  // post-update: 8 elements on per load
        Reg::LoadAlign<half, Reg::PostLiteral::POST_MODE_UPDATE, Reg::LoadDist::DIST_E2B_B16>(a, h, 8);
        Reg::StoreAlign(ho + i * 128, a, all16);
    }
    Reg::LoadAlign<float, Reg::LoadDist::DIST_E2B_B32>(b, f + 8);     // the plain form, 8 floats in
    Reg::StoreAlign(fo, b, all32);
}

extern "C" __global__ __aicore__ void e2b(GM_ADDR hx, GM_ADDR fx, GM_ADDR hout, GM_ADDR fout) {
    GlobalTensor<half> hg, hog;
    GlobalTensor<float> fg, fog;
    hg.SetGlobalBuffer((__gm__ half*)hx, 32);
    fg.SetGlobalBuffer((__gm__ float*)fx, 32);
    hog.SetGlobalBuffer((__gm__ half*)hout, 256);
    fog.SetGlobalBuffer((__gm__ float*)fout, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<half> h = b.Get<half>(), ho = h[512];
    LocalTensor<float> f = b.Get<float>()[64], fo = f[512];
    DataCopy(h, hg, 32);
    DataCopy(f, fg, 32);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<E2B>((__ubuf__ half*)h.GetPhyAddr(), (__ubuf__ float*)f.GetPhyAddr(),
                     (__ubuf__ half*)ho.GetPhyAddr(), (__ubuf__ float*)fo.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(hog, ho, 256);
    DataCopy(fog, fo, 64);
}
"""

kernels = shared_module.register(KERNEL, "ascend950")


def test_e2b_loads_broadcast_each_element_to_one_block():
    devkit_tree.require()
    rng = np.random.default_rng(5)
    hx = rng.standard_normal(32).astype(np.float16)
    fx = rng.standard_normal(32).astype(np.float32)
    hout, fout = np.zeros(256, np.float16), np.zeros(64, np.float32)
    kernels().launch("e2b", 1, hx, fx, hout, fout)
    np.testing.assert_array_equal(hout, np.repeat(hx[:16], 16))       # two loads of 8, 16 halves per block
    np.testing.assert_array_equal(fout, np.repeat(fx[8:16], 8))       # 8 floats per block


UNMODELLED = """
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void Unpack4(__ubuf__ uint8_t* x, __ubuf__ uint32_t* y)
{
    Reg::RegTensor<uint8_t> a;
    Reg::LoadAlign<uint8_t, Reg::LoadDist::DIST_UNPACK4_B8>(a, x);
    Reg::MaskReg all = Reg::CreateMask<uint32_t, Reg::MaskPattern::ALL>();
    Reg::StoreAlign(y, (Reg::RegTensor<uint32_t>&)a, all);
}

extern "C" __global__ __aicore__ void unpack4(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<uint8_t> l = b.Get<uint8_t>();
    asc_vf_call<Unpack4>((__ubuf__ uint8_t*)l.GetPhyAddr(), (__ubuf__ uint32_t*)l[256].GetPhyAddr());
}
"""


def test_an_unmodelled_distribution_is_refused_naming_it():
    """The distribution is tested at compile time, so the link names it (DIST_UNPACK4_B8 is 20 in the
    library's LoadDist) rather than only `vlds`."""
    devkit_tree.require()
    with pytest.raises(AscgenError, match=r"intrinsic vlds \[\(RegTensor<unsigned char>, unsigned char\*, Dist=20\)\]"):
        load(UNMODELLED, "ascend950", backend="devkit", filename="unpack4.cpp").launch(
            "unpack4", 1, np.zeros(64, np.uint8), np.zeros(64, np.uint32))
