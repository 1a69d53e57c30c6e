"""dav_3510 vmull (dav3510/valu.h) through the library's Reg::Mull: the 64-bit product of 32-bit lanes, low
word into the first destination, high word into the second, signed for int32; inactive lanes zero. ops-nn's
FastDiv (pooling, non_zero) and ops-math's random kernels call it; they stopped at `missing intrinsic vmull`.
Checked bit-exact against numpy's 64-bit products."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import reg_harness, shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T, bool High>
__simd_vf__ inline void MullPart(__ubuf__ T* d, __ubuf__ T* a, __ubuf__ T* b, uint32_t count)
{
    Reg::RegTensor<T> low, high, ra, rb;
    Reg::MaskReg m = Reg::UpdateMask<T>(count);
    Reg::LoadAlign(ra, a);
    Reg::LoadAlign(rb, b);
    Reg::Mull(low, high, ra, rb, m);
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::StoreAlign(d, High ? high : low, all);
}

""" + reg_harness.binary_run("MullPart<T, High>", "typename T, bool High") + """
extern "C" __global__ __aicore__ void mull_u32_low(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<uint32_t, false>(d, a, b, 50); }
extern "C" __global__ __aicore__ void mull_u32_high(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<uint32_t, true>(d, a, b, 50); }
extern "C" __global__ __aicore__ void mull_s32_low(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<int32_t, false>(d, a, b, 50); }
extern "C" __global__ __aicore__ void mull_s32_high(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<int32_t, true>(d, a, b, 50); }
"""

kernels = shared_module.register(KERNEL, "ascend950")


@pytest.mark.parametrize("dtype,wide", [(np.uint32, np.uint64), (np.int32, np.int64)])
def test_mull_gives_the_low_and_high_words_of_the_exact_product(dtype, wide):
    devkit_tree.require()
    rng = np.random.default_rng(11)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, 64, dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, 64, dtype=dtype, endpoint=True)
    a[:3], b[:3] = [info.max, info.min, 7], [info.max, info.min, -3 if info.min < 0 else 3]
    product = a.astype(wide) * b.astype(wide)                  # exact: wraps only for uint64 past 2^64, never here
    words = product.view(np.uint64)
    low, high = (words & 0xFFFFFFFF).astype(np.uint32), (words >> 32).astype(np.uint32)
    name = "mull_u32" if dtype == np.uint32 else "mull_s32"
    for part, want in (("low", low), ("high", high)):
        out = np.full(64, 0x55, dtype)
        kernels().launch(f"{name}_{part}", 1, out, a, b)
        want = want.view(dtype).copy()
        want[50:] = 0                                          # inactive lanes zero
        np.testing.assert_array_equal(out, want, err_msg=part)
