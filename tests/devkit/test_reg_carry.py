"""dav_3510 vaddc / vaddcs / vsubc / vsubcs (dav3510/valu.h), the carry forms on 32-bit lanes, checked through
what the library builds from them: Reg::Add and Reg::Sub on 64-bit lanes (AddB64Impl / SubB64Impl: the low
words with a carry out, the high words with it in), against numpy's wrapping int64 / uint64 arithmetic, on
lanes whose low words carry or borrow. A wrong carry convention makes the high words wrong by one. ops-math
grouped_bias_add_grad (its int64 group index) and sign (int64) on ascend950 stopped at them."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import reg_harness, shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T, bool SUB>
__simd_vf__ inline void AddSub64(__ubuf__ T* d, __ubuf__ T* a, __ubuf__ T* b, uint32_t count)
{
    Reg::RegTensor<T> rd, ra, rb;
    Reg::MaskReg m = Reg::UpdateMask<T>(count);
    Reg::LoadAlign(ra, a);
    Reg::LoadAlign(rb, b);
    if constexpr (SUB) Reg::Sub(rd, ra, rb, m); else Reg::Add(rd, ra, rb, m);
    Reg::StoreAlign(d, rd, m);
}

""" + reg_harness.binary_run("AddSub64<T, SUB>", "typename T, bool SUB") + """
extern "C" __global__ __aicore__ void add_i64(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<int64_t, false>(d, a, b, 32); }
extern "C" __global__ __aicore__ void sub_i64(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<int64_t, true>(d, a, b, 32); }
extern "C" __global__ __aicore__ void add_u64(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<uint64_t, false>(d, a, b, 32); }
extern "C" __global__ __aicore__ void sub_u64(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<uint64_t, true>(d, a, b, 32); }
"""

kernels = shared_module.register(KERNEL, "ascend950")


@pytest.mark.parametrize("kernel,dtype", [("add_i64", np.int64), ("sub_i64", np.int64),
                                          ("add_u64", np.uint64), ("sub_u64", np.uint64)])
def test_64_bit_add_and_sub_built_from_the_carry_forms_wrap_as_numpy(kernel, dtype):
    devkit_tree.require()
    rng = np.random.default_rng(21)
    bits = rng.integers(0, 1 << 63, (2, 32), dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, (2, 32), dtype=np.uint64)
    a, b = bits[0].copy(), bits[1].copy()
    lo = np.uint64(0xFFFFFFFF)
    a[:4], b[:4] = [lo, 5, 0, lo], [1, 7, 1, lo]              # low words that carry / borrow, and neither
    a, b = a.view(dtype), b.view(dtype)
    with np.errstate(over="ignore"):
        want = (a - b) if kernel.startswith("sub") else (a + b)
    out = np.zeros(32, dtype)
    kernels().launch(kernel, 1, out, a, b)
    np.testing.assert_array_equal(out, want)
