"""InitConstValue on the devkit backend (runtime/devkit/include/ascgen_devkit/cube.h `fill_matrix`: the CCE
create_cbuf_matrix / create_ca_matrix / create_cb_matrix and their _bf16 forms) against numpy: the library's
own InitConstValue fills L1 in repeats of blockNum 32-byte blocks with dstGap blocks skipped, and L0A / L0B in
512-byte blocks (read back through Mmad: the product of two constant matrices)."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from ascgen.runtime.loader import load
from tests import devkit_tree

L1_FILL = r"""
#include "kernel_operator.h"
// L1 (A1) of 2048 bytes: all `base`, then `value` in `repeat` runs of `blocks` 32-byte blocks, `gap` apart;
// copied to GM as it lies.
template <class T>
__aicore__ inline void fill(GM_ADDR out, uint16_t repeat, uint16_t blocks, uint16_t gap, T base, T value) {
    AscendC::LocalTensor<T> l1(AscendC::TPosition::A1, 0, 2048 / sizeof(T));
    AscendC::InitConstValue(l1, AscendC::InitConstValueParams<T>(1, 64, 0, base));
    AscendC::InitConstValue(l1, AscendC::InitConstValueParams<T>(repeat, blocks, gap, value));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)out, 2048 / sizeof(T));
    AscendC::DataCopy(g, l1, 2048 / sizeof(T));
}
extern "C" __global__ __aicore__ void fill_half(GM_ADDR out, uint16_t r, uint16_t b, uint16_t g) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    fill<half>(out, r, b, g, half(-1.0f), half(2.5f));
}
extern "C" __global__ __aicore__ void fill_float(GM_ADDR out, uint16_t r, uint16_t b, uint16_t g) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    fill<float>(out, r, b, g, -1.0f, 3.25f);
}
extern "C" __global__ __aicore__ void fill_bf16(GM_ADDR out, uint16_t r, uint16_t b, uint16_t g) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    fill<bfloat16_t>(out, r, b, g, bfloat16_t(-1.0f), bfloat16_t(1.5f));
}
extern "C" __global__ __aicore__ void fill_int16(GM_ADDR out, uint16_t r, uint16_t b, uint16_t g) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    fill<int16_t>(out, r, b, g, int16_t(-1), int16_t(-12345));
}
"""

CASES = [("fill_half", np.float16, -1.0, 2.5), ("fill_float", np.float32, -1.0, 3.25),
         ("fill_bf16", ml_dtypes.bfloat16, -1.0, 1.5), ("fill_int16", np.int16, -1, -12345)]


@pytest.fixture(scope="module")
def l1_fill():
    devkit_tree.require()
    return load(L1_FILL, "ascend910b", filename="l1_fill.cpp", backend="devkit")


def _expected(dtype, base, value, repeat, blocks, gap):
    want = np.full(2048 // np.dtype(dtype).itemsize, base, dtype)
    per_block = 32 // np.dtype(dtype).itemsize
    for r in range(repeat):
        start = r * (blocks + gap) * per_block
        want[start:start + blocks * per_block] = value
    return want


@pytest.mark.parametrize("kernel,dtype,base,value", CASES)
@pytest.mark.parametrize("repeat,blocks,gap", [(3, 2, 1), (1, 64, 0), (5, 1, 7), (0, 4, 0)])
def test_init_const_value_fills_l1_in_repeats_of_blocks(l1_fill, kernel, dtype, base, value, repeat, blocks, gap):
    out = np.zeros(2048 // np.dtype(dtype).itemsize, dtype)
    l1_fill.launch(kernel, 1, out, np.uint16(repeat), np.uint16(blocks), np.uint16(gap))
    np.testing.assert_array_equal(out.view(np.uint8), _expected(dtype, base, value, repeat, blocks, gap).view(np.uint8))


def test_a_fill_past_the_end_of_l1_is_a_memory_error(l1_fill):
    from ascgen.errors import KernelMemoryError
    with pytest.raises(KernelMemoryError) as info:       # 32767 repeats of 32 KB: far past the 512 KB of L1
        l1_fill.launch("fill_half", 1, np.zeros(1024, np.float16), np.uint16(32767), np.uint16(1024), np.uint16(0))
    assert "create_cbuf_matrix" in str(info.value)


L0_FILL = r"""
#include "kernel_operator.h"
// A (16 x 32 half in L0A) all `a`, B (32 x 16 in L0B) all `b`, C = A @ B in L0C: every element 32 * a * b.
extern "C" __global__ __aicore__ void mmad_consts(GM_ADDR out) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, 512);
    AscendC::LocalTensor<half> b2(AscendC::TPosition::B2, 0, 512);
    AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, 256);
    AscendC::InitConstValue(a2, AscendC::InitConstValueParams<half>(1, 2, 0, half(1.5f)));
    AscendC::InitConstValue(b2, AscendC::InitConstValueParams<half>(2, 1, 0, half(-0.25f)));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::MmadParams mp;
    mp.m = 16; mp.n = 16; mp.k = 32;
    AscendC::Mmad(c1, a2, b2, mp);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)out, 256);
    AscendC::FixpipeParamsV220 fp;
    fp.nSize = 16; fp.mSize = 16; fp.srcStride = 16; fp.dstStride = 16;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(g, c1, fp);
}
"""


def test_init_const_value_fills_l0a_and_l0b_in_fractals():
    devkit_tree.require()
    out = np.zeros(256, np.float32)
    load(L0_FILL, "ascend910b", filename="l0_fill.cpp", backend="devkit").launch("mmad_consts", 1, out)
    np.testing.assert_array_equal(out, np.full(256, 32 * 1.5 * -0.25, np.float32))
