"""The library's DT_* data-type macros in a CPU-debug build (runtime/devkit/include/kernel_operator.h).

CANN's CPU-debug build (__CCE_KT_TEST__, as its tikicpulib::<soc> target defines) sees kernel_type.h's
DT_FLOAT, DT_INT4... macros from the point a source includes kernel_operator.h; operator kernels compare
them in `#if` (ops-nn rules pass `-DORIG_DTYPE_VAR=DT_FLOAT16`) and in C++ (swi_glu_quant:
`tilingData_.dstType == DT_INT4`). Before, the devkit prelude ended them for the whole unit: the C++ use
failed to compile ('DT_INT4' not declared) and the `#if` read both names as 0, taking the first branch
whatever the type."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.runtime.loader import load
from tests import devkit_tree

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

#if ORIG_DTYPE_X == DT_FLOAT16
constexpr int32_t kBranch = 16;
#elif ORIG_DTYPE_X == DT_FLOAT
constexpr int32_t kBranch = 32;
#else
constexpr int32_t kBranch = -1;
#endif

extern "C" __global__ __aicore__ void dt_probe(GM_ADDR out) {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)out, 8);
    g.SetValue(0, kBranch);
    g.SetValue(1, DT_INT4);
    g.SetValue(2, DT_BF16);
    g.SetValue(3, DT_FLOAT16);
}
"""


@pytest.mark.parametrize("dtype,branch", [("DT_FLOAT16", 16), ("DT_FLOAT", 32), ("DT_INT8", -1)])
def test_cpu_debug_kernel_sees_the_library_dt_macros_in_if_and_in_code(dtype, branch):
    devkit_tree.require()
    out = np.zeros(8, np.int32)
    module = load(KERNEL, "ascend910b", backend="devkit", filename="dt_probe.cpp",
                  defines={"__CCE_KT_TEST__": "1", "ORIG_DTYPE_X": dtype})
    module.launch("dt_probe", 1, out)
    # the library's values (kernel_type.h): DT_INT4 29, DT_BF16 27, DT_FLOAT16 1
    np.testing.assert_array_equal(out[:4], [branch, 29, 27, 1])
