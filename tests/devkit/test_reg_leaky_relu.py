"""dav_3510 vlrelu (dav3510/valu.h) through the library's Reg::LeakyRelu: x on the active lanes where x >= 0,
x * slope elsewhere (NaN stays NaN, -0 stays -0), the rest zero (ZEROING). The level-2 LeakyRelu of dav_3510
calls this form (ops-nn fused_bias_leaky_relu's 7 kernel-UT cases stopped at `no matching function for call to
vlrelu(RegTensor<float>&, ...)`). Checked bit-exact: each result is x or one rounded product."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import reg_harness, shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void Leaky(__ubuf__ T* d, __ubuf__ T* a, __ubuf__ T* b, uint32_t count)
{
    Reg::RegTensor<T> rd, ra;
    Reg::MaskReg m = Reg::UpdateMask<T>(count);
    Reg::LoadAlign(ra, a);
    Reg::LeakyRelu(rd, ra, static_cast<T>(0.125f), m);
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::StoreAlign(d, rd, all);
}

""" + reg_harness.binary_run("Leaky<T>", "typename T") + """
extern "C" __global__ __aicore__ void leaky_f32(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<float>(d, a, b, 61); }
extern "C" __global__ __aicore__ void leaky_f16(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<half>(d, a, b, 100); }
"""

BITS = {np.float32: np.uint32, np.float16: np.uint16}

kernels = shared_module.register(KERNEL, "ascend950")


@pytest.mark.parametrize("kernel,dtype,count", [("leaky_f32", np.float32, 61), ("leaky_f16", np.float16, 100)])
def test_leaky_relu_keeps_the_non_negative_lanes_and_scales_the_rest(kernel, dtype, count):
    devkit_tree.require()
    rng = np.random.default_rng(5)
    n = 256 // np.dtype(dtype).itemsize
    a = rng.uniform(-4, 4, n).astype(dtype)
    a[:5] = [np.nan, -0.0, 0.0, -np.inf, 3.0]
    slope = dtype(0.125)
    want = np.where(a >= 0, a, a * slope).astype(dtype)      # NaN >= 0 is false: NaN * slope, a NaN
    want[count:] = 0
    out = np.full(n, np.nan, dtype)
    kernels().launch(kernel, 1, out, a, np.zeros(n, dtype))
    np.testing.assert_array_equal(out.view(BITS[dtype]), want.view(BITS[dtype]))
    assert np.signbit(out[1]) and not np.signbit(out[2])      # -0 and +0 kept as they are
