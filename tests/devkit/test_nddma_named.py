"""The library's NDDMA DataCopy on dav_3510 (DataCopy(LocalTensor, GlobalTensor, MultiCopyParams), as ops-nn
dynamic_mx_quant calls it) reaches nddma_out_to_ub_b8/_b16/_b32, which the CPU model does not implement:
the build names them with the loop-register intrinsics they need (set_loop*_stride_nddma...), where before
they were not declared at all and the build stopped at a plain g++ error ('nddma_out_to_ub_b8' was not
declared)."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.errors import AscgenError
from ascgen.runtime.loader import load
from tests import devkit_tree

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void nddma(GM_ADDR x) {
    GlobalTensor<uint8_t> xg;
    xg.SetGlobalBuffer((__gm__ uint8_t*)x, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<uint8_t> xl = buf.Get<uint8_t>();
    MultiCopyParams<uint8_t, 1> params;
    params.loopInfo.loopSrcStride[0] = 1;
    params.loopInfo.loopDstStride[0] = 1;
    params.loopInfo.loopSize[0] = 64;
    params.constantValue = 0;
    DataCopy<uint8_t, 1, kDefaultNdDmaConfig>(xl, xg, params);
}
"""


def test_nddma_data_copy_is_refused_naming_the_intrinsics():
    devkit_tree.require()
    x = np.zeros(64, np.uint8)
    with pytest.raises(AscgenError, match=r"does not implement what this kernel needs:\n  intrinsic nddma_out_to_ub_b8 \(needed by DataCopyWithNDDMAImpl"):
        load(KERNEL, "ascend950", backend="devkit", filename="nddma.cpp").launch("nddma", 1, x)
