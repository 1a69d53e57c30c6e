"""dav_3510 vabsdif (dav3510/valu.h) through the library's Reg::AbsSub: |src0 - src1| on the active lanes, the
rest zero (ZEROING, the only mode the library allows). ops-math is_close on ascend950 computes |x1 - x2| so and
did not compile (`vabsdif` was not declared at all). Checked bit-exact against the exact difference rounded
once to the lane's type (float64 holds the difference of two halves or floats in this range exactly)."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import reg_harness, shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void AbsDif(__ubuf__ T* d, __ubuf__ T* a, __ubuf__ T* b, uint32_t count)
{
    Reg::RegTensor<T> rd, ra, rb;
    Reg::MaskReg m = Reg::UpdateMask<T>(count);
    Reg::LoadAlign(ra, a);
    Reg::LoadAlign(rb, b);
    Reg::AbsSub(rd, ra, rb, m);
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::StoreAlign(d, rd, all);
}

""" + reg_harness.binary_run("AbsDif<T>", "typename T") + """
extern "C" __global__ __aicore__ void absdif_f32(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<float>(d, a, b, 61); }
extern "C" __global__ __aicore__ void absdif_f16(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<half>(d, a, b, 100); }
"""

BITS = {np.float32: np.uint32, np.float16: np.uint16}

kernels = shared_module.register(KERNEL, "ascend950")


@pytest.mark.parametrize("kernel,dtype,count", [("absdif_f32", np.float32, 61), ("absdif_f16", np.float16, 100)])
def test_absdif_is_the_rounded_magnitude_of_the_difference(kernel, dtype, count):
    devkit_tree.require()
    rng = np.random.default_rng(3)
    n = 256 // np.dtype(dtype).itemsize
    a = rng.uniform(-4, 4, n).astype(dtype)
    b = np.where(rng.random(n) < 0.3, a, rng.uniform(-4, 4, n)).astype(dtype)     # some exact zeros
    b[:4] = [0.5, -0.5, 3.0, -3.0]
    a[:4] = [-0.25, 0.25, -1.0, 1.0]                                             # both signs of a - b
    want = np.abs(a.astype(np.float64) - b.astype(np.float64)).astype(dtype)
    want[count:] = 0
    out = np.full(n, np.nan, dtype)
    kernels().launch(kernel, 1, out, a, b)
    np.testing.assert_array_equal(out.view(BITS[dtype]), want.view(BITS[dtype]))
