"""GET_TILING_DATA as an op's generated tiling header defines it (ascgen/source/op_tiling.py,
get_tiling_data_macro): the op type's class, unless the kernel registers its own struct with
REGISTER_TILING_DEFAULT, which wins as in CANN. ops-nn ascend_quant_v2's ascend950 kernel registers
QuantizeTilingData (what its regbase host tiling writes) while the op type's class is AscendQuantV2TilingData:
the header's class used to win and the kernel did not compile. The two structs here swap two fields, so the
values read tell which struct GET_TILING_DATA declared."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.runtime.loader import load
from ascgen.source.op_tiling import get_tiling_data_macro
from tests import devkit_tree

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;

struct HeaderTiling { float scale; float bias; };
struct KernelTiling { float bias; float scale; };
""" + "\n".join(get_tiling_data_macro("HeaderTiling")) + r"""

template <class T> __aicore__ inline void Write(GM_ADDR out, const T& t) {
    GlobalTensor<float> o;
    o.SetGlobalBuffer((__gm__ float*)out, 2);
    o.SetValue(0, t.scale);
    o.SetValue(1, t.bias);
}
extern "C" __global__ __aicore__ void by_header(GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    Write(out, t);
}
extern "C" __global__ __aicore__ void by_registration(GM_ADDR out, GM_ADDR tiling) {
    REGISTER_TILING_DEFAULT(KernelTiling);
    GET_TILING_DATA(t, tiling);
    Write(out, t);
}
"""


@pytest.mark.parametrize("kernel,want", [("by_header", [1.5, 2.5]), ("by_registration", [2.5, 1.5])])
def test_a_kernel_registration_wins_over_the_generated_default(kernel, want):
    devkit_tree.require()
    out = np.zeros(2, np.float32)
    load(KERNEL, "ascend950", backend="devkit", filename="tiling_registration.cpp").launch(
        kernel, 1, out, np.array([1.5, 2.5], np.float32))
    np.testing.assert_array_equal(out, np.array(want, np.float32))
