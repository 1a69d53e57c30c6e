"""A kernel's own `__gm__` variables are GM the kernel may read (issue 19: ops-math lin_space reads its
`constexpr static __gm__ T assistGm[256]` table through a GlobalTensor; 10 of its UT cases stopped at "GM read
... which is in no buffer of this launch"). On the device they are part of the kernel binary, which is in
GM; here they are in the module's data segment. Anything else outside the launch's buffers stays a fault,
the kernel's code included (runtime/core/gm.cpp, `in_kernel_image`)."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.errors import KernelMemoryError
from ascgen.runtime.loader import load
from tests import devkit_tree

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;

class Ramp {
public:
    constexpr static __gm__ float table[64] = {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
        58, 59, 60, 61, 62, 63};
};

__aicore__ inline void copy_from(__gm__ float* from, GM_ADDR out) {
    GlobalTensor<float> src, dst;
    src.SetGlobalBuffer(from, 64);
    dst.SetGlobalBuffer((__gm__ float*)out, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> local = buf.Get<float>();
    DataCopy(local, src, 64);
    PipeBarrier<PIPE_ALL>();
    Muls(local, local, 2.0f, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(dst, local, 64);
}

extern "C" __global__ __aicore__ void from_table(GM_ADDR out) {
    copy_from((__gm__ float*)Ramp::table, out);
}

extern "C" __global__ __aicore__ void from_code(GM_ADDR out) {
    copy_from(reinterpret_cast<__gm__ float*>(reinterpret_cast<uintptr_t>(&copy_from)), out);  // FAULT:code
}
"""


@pytest.mark.parametrize("backend", ["builtin", "devkit"])
def test_a_kernel_reads_its_own_gm_table_and_not_its_code(backend):
    if backend == "devkit":
        devkit_tree.require()
    mod = load(KERNEL, "ascend910b", backend=backend, filename="image.cpp")
    out = np.zeros(64, np.float32)
    mod.launch("from_table", 2, out)
    assert np.array_equal(out, 2 * np.arange(64, dtype=np.float32))
    with pytest.raises(KernelMemoryError, match="in no buffer of this launch") as fault:
        mod.launch("from_code", 1, out)
    assert "image.cpp:" in str(fault.value)
