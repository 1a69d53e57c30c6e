"""The vector engine checks the UB blocks an instruction touches: its active elements' blocks, not whole
iterations (runtime/devkit/include/ascgen_devkit/vector.h, `touched_extent`). The library's InitOutput
duplicates into what PopStackBuffer leaves at the end of UB with a counter-mode count: ops-nn deep_norm_grad's
368 floats in the last 1472 bytes were "outside the 196608-byte UB" because 6 whole iterations are 1536 bytes
(2 of its UT cases). A copy that really passes the end of UB stays a fault."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.errors import KernelMemoryError
from ascgen.runtime.loader import load
from tests import devkit_tree

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t UB_BYTES = 192 * 1024;   // ascend910b

// Everything but the last `left` bytes of UB in one buffer, so the pop-stack buffer is those bytes; then
// InitOutput zeroes `count` floats of GM through it, or Duplicate writes `count` floats from where it starts.
extern "C" __global__ __aicore__ void fill_at_the_end(GM_ADDR out, uint32_t left, uint32_t count, uint32_t direct) {
    GlobalTensor<float> o;
    o.SetGlobalBuffer((__gm__ float*)out, count);
    TPipe pipe;
    TBuf<TPosition::VECCALC> rest;
    pipe.InitBuffer(rest, UB_BYTES - left);
    if (direct) {
        LocalTensor<float> pop;
        PopStackBuffer<float, TPosition::LCM>(pop);
        Duplicate(pop, 0.0f, count);
        return;
    }
    InitOutput<float>(o, count, 0.0f);
}
"""


@pytest.fixture(scope="module")
def module():
    devkit_tree.require()
    return load(KERNEL, "ascend910b", backend="devkit", filename="extent.cpp")


def test_a_counted_fill_ending_exactly_at_the_end_of_ub_is_in_bounds(module):
    out = np.ones(368 * 4, np.float32)
    module.launch("fill_at_the_end", 1, out, np.uint32(1472), np.uint32(368 * 4), np.uint32(0))
    assert not out.any()                  # 4 rounds of 368 zeros through the 1472-byte pop buffer


def test_a_counted_fill_past_the_end_of_ub_is_still_a_fault(module):
    out = np.ones(512, np.float32)
    with pytest.raises(KernelMemoryError, match="outside the 196608-byte UB"):
        module.launch("fill_at_the_end", 1, out, np.uint32(1472), np.uint32(384), np.uint32(1))
