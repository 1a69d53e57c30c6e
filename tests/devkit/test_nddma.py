"""dav_3510 multi-dimensional DMA (dav3510/nddma.h) through the library's DataCopy(LocalTensor,
GlobalTensor, NdDmaParams), in the scenarios of its data_copy_gm2ub_nddma example: padding a [16, 32] block
to [32, 64] with a constant, a [28, 15] block to [32, 32] with the nearest values, a transpose by strides.
Checked bit-exact against numpy (np.pad with constant / edge mode, .T). ops-nn group_norm_silu stopped at
`nddma_out_to_ub_b32` on ascend950 before."""
from __future__ import annotations

import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

static constexpr NdDmaConfig kConstant;
static constexpr NdDmaConfig kNearest = {true};

template <typename T, int SCENARIO>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y, T pad) {
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T*)x, 1024);
    yg.SetGlobalBuffer((__gm__ T*)y, 2048);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048 * sizeof(T));
    LocalTensor<T> yl = buf.Get<T>();
    if constexpr (SCENARIO == 1) {          // [16, 32] -> [32, 64]: left 15, top 13, right 17, bottom 3
        NdDmaLoopInfo<2> loop{{1, 32}, {1, 64}, {32, 16}, {15, 13}, {17, 3}};
        NdDmaParams<T, 2> params{loop, pad};
        DataCopy<T, 2, kConstant>(yl, xg, params);
    } else if constexpr (SCENARIO == 2) {   // [28, 15] -> [32, 32], the boundary values
        NdDmaLoopInfo<2> loop{{1, 15}, {1, 32}, {15, 28}, {11, 3}, {6, 1}};
        NdDmaParams<T, 2> params{loop, pad};
        DataCopy<T, 2, kNearest>(yl, xg, params);
    } else {                                // [16, 64] -> [64, 16]
        NdDmaLoopInfo<2> loop{{1, 64}, {16, 1}, {64, 16}, {0, 0}, {0, 0}};
        NdDmaParams<T, 2> params{loop, pad};
        DataCopy<T, 2, kConstant>(yl, xg, params);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, 2048);
}
extern "C" __global__ __aicore__ void pad_f32(GM_ADDR x, GM_ADDR y) { Run<float, 1>(x, y, 0.0f); }
extern "C" __global__ __aicore__ void nearest_f32(GM_ADDR x, GM_ADDR y) { Run<float, 2>(x, y, 0.0f); }
extern "C" __global__ __aicore__ void transpose_f32(GM_ADDR x, GM_ADDR y) { Run<float, 3>(x, y, 0.0f); }
// 64 bytes in a row, through MultiCopyParams (dynamic_mx_quant's form; b8 lanes)
extern "C" __global__ __aicore__ void row_u8(GM_ADDR x, GM_ADDR y) {
    GlobalTensor<uint8_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ uint8_t*)x, 64);
    yg.SetGlobalBuffer((__gm__ uint8_t*)y, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<uint8_t> yl = buf.Get<uint8_t>();
    MultiCopyParams<uint8_t, 1> params;
    params.loopInfo.loopSrcStride[0] = 1;
    params.loopInfo.loopDstStride[0] = 1;
    params.loopInfo.loopSize[0] = 64;
    params.constantValue = 0;
    DataCopy<uint8_t, 1, kDefaultNdDmaConfig>(yl, xg, params);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, 64);
}
extern "C" __global__ __aicore__ void pad_f16(GM_ADDR x, GM_ADDR y) { Run<half, 1>(x, y, half(2.5f)); }
"""

kernels = shared_module.register(KERNEL, "ascend950")


def _expected(kernel: str, x: np.ndarray) -> np.ndarray:
    if kernel.startswith("pad"):
        pad = 2.5 if x.dtype == np.float16 else 0.0
        out = np.pad(x[:512].reshape(16, 32), ((13, 3), (15, 17)), constant_values=pad)
    elif kernel.startswith("nearest"):
        out = np.pad(x[:420].reshape(28, 15), ((3, 1), (11, 6)), mode="edge")
    elif kernel.startswith("row"):
        out = x[:64]
    else:
        out = x.reshape(16, 64).T
    return out.reshape(-1)


@pytest.mark.parametrize("kernel,dtype", [("pad_f32", np.float32), ("nearest_f32", np.float32),
                                          ("transpose_f32", np.float32), ("pad_f16", np.float16),
                                          ("row_u8", np.uint8)])
def test_nddma_matches_numpy(kernel, dtype):
    devkit_tree.require()
    rng = np.random.default_rng(9)
    x = (rng.integers(0, 256, 1024) if dtype == np.uint8 else rng.uniform(-50, 50, 1024)).astype(dtype)
    y = np.full(2048, 99, dtype)
    kernels().launch(kernel, 1, x, y)
    want = _expected(kernel, x)
    np.testing.assert_array_equal(y[:want.size].view(np.uint8), want.view(np.uint8))
