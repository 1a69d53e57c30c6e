"""dav_c220 vmadd (ascgen_devkit/vector.h) through the library's FusedMulAdd: dst = src0 * dst + src1 (its
documented formula), level 2 (counter mode) and level 0 (a mask of 64 lanes, 2 repeats), float and half,
against numpy. Before the intrinsic was modelled, ops-nn add_layer_norm's UTs stopped at a plain g++ error,
'vmadd' not declared. Each step is rounded in the compute type as vmla's (the documentation pins no
more), so half is compared within its rounding; float products and sums are exact to numpy's float32
to 1 ulp (whether the compiler fuses the host multiply-add is its choice)."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

N = 256
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T, bool LEVEL0>
__aicore__ inline void Run(GM_ADDR d, GM_ADDR a, GM_ADDR b) {
    GlobalTensor<T> dg, ag, bg;
    dg.SetGlobalBuffer((__gm__ T*)d, 256);
    ag.SetGlobalBuffer((__gm__ T*)a, 256);
    bg.SetGlobalBuffer((__gm__ T*)b, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 256 * sizeof(T));
    LocalTensor<T> dl = buf.Get<T>(), al = dl[256], bl = dl[512];
    DataCopy(dl, dg, 256);
    DataCopy(al, ag, 256);
    DataCopy(bl, bg, 256);
    PipeBarrier<PIPE_ALL>();
    if constexpr (LEVEL0) {
        // 64 lanes of each repeat, 2 repeats 8 blocks apart
        FusedMulAdd(dl, al, bl, uint64_t(64), 2, {1, 1, 1, 8, 8, 8});
    } else {
        FusedMulAdd(dl, al, bl, 200);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(dg, dl, 256);
}

extern "C" __global__ __aicore__ void madd_f32(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<float, false>(d, a, b); }
extern "C" __global__ __aicore__ void madd_f16(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<half, false>(d, a, b); }
extern "C" __global__ __aicore__ void madd_f32_l0(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<float, true>(d, a, b); }
"""

kernels = shared_module.register(KERNEL, "ascend910b")


def _active(kernel: str, dtype) -> np.ndarray:
    lanes = np.zeros(N, bool)
    if kernel.endswith("_l0"):
        per_repeat = 256 // np.dtype(dtype).itemsize          # 8 blocks of 32 bytes
        for r in range(2):
            lanes[r * per_repeat:r * per_repeat + 64] = True
    else:
        lanes[:200] = True
    return lanes


@pytest.mark.parametrize("kernel,dtype", [("madd_f32", np.float32), ("madd_f16", np.float16),
                                          ("madd_f32_l0", np.float32)])
def test_fused_mul_add_is_src0_times_dst_plus_src1(kernel, dtype):
    devkit_tree.require()
    rng = np.random.default_rng(5)
    d, a, b = (rng.uniform(-4, 4, N).astype(dtype) for _ in range(3))
    out = d.copy()
    kernels().launch(kernel, 1, out, a, b)
    lanes = _active(kernel, dtype)
    wide = (a.astype(np.float32) * d.astype(np.float32)).astype(np.float32) + b.astype(np.float32)
    want = np.where(lanes, wide.astype(dtype), d)
    np.testing.assert_array_equal(out[~lanes], d[~lanes])             # inactive lanes untouched
    if dtype == np.float16:
        np.testing.assert_allclose(out.astype(np.float32), want.astype(np.float32), rtol=2 ** -10, atol=2 ** -14)
    else:
        np.testing.assert_allclose(out, want, rtol=2 ** -23, atol=0)
    # not src0 * src1 + dst (vmla's roles): the roles differ on these values
    assert not np.allclose((a * b + d)[lanes], out[lanes], rtol=1e-2)
