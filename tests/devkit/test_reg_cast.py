"""dav_3510 vcvt (dav3510/vconv.h) through the library's Reg::Cast, in the form fake_quant's kernels use:
float -> int32, CAST_FLOOR, NO_SAT, ZEROING. That form is modelled; before the support decision was made at
compile time it linked to unimpl::vcvt (the optimizer did not fold the runtime check: this test failed so), and the
op's UTs were reported `missing intrinsic vcvt`. In-range values only: NO_SAT's out-of-range result is
not pinned down by the library."""
from __future__ import annotations

import numpy as np

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

constexpr Reg::CastTrait kFloor = {Reg::RegLayout::UNKNOWN, Reg::SatMode::NO_SAT, Reg::MaskMergeMode::ZEROING,
                                   RoundMode::CAST_FLOOR};

__simd_vf__ inline void FloorVf(__ubuf__ float* x, __ubuf__ int32_t* y, uint32_t count)
{
    Reg::RegTensor<float> a;
    Reg::RegTensor<int32_t> b;
    Reg::MaskReg m = Reg::UpdateMask<float>(count);
    Reg::MaskReg all = Reg::CreateMask<int32_t, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(a, x);
    Reg::Cast<int32_t, float, kFloor>(b, a, m);
    Reg::StoreAlign(y, b, all);
}

extern "C" __global__ __aicore__ void floor_cast(GM_ADDR x, GM_ADDR y) {
    GlobalTensor<float> xg;
    GlobalTensor<int32_t> yg;
    xg.SetGlobalBuffer((__gm__ float*)x, 64);
    yg.SetGlobalBuffer((__gm__ int32_t*)y, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<float> xl = buf.Get<float>();
    LocalTensor<int32_t> yl = buf.Get<int32_t>()[64];
    DataCopy(xl, xg, 64);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<FloorVf>((__ubuf__ float*)xl.GetPhyAddr(), (__ubuf__ int32_t*)yl.GetPhyAddr(), 40);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, 64);
}
"""

kernels = shared_module.register(KERNEL, "ascend950")


def test_float_to_int32_floor_matches_numpy_and_zeroes_inactive_lanes():
    devkit_tree.require()
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(64) * 1000).astype(np.float32)
    x[:6] = [-2.5, -0.5, 0.5, 2.5, -1.0, 1e9]
    y = np.full(64, 7, np.int32)
    kernels().launch("floor_cast", 1, x, y)
    want = np.floor(x).astype(np.int32)
    want[40:] = 0
    np.testing.assert_array_equal(y, want)
