"""dav_3510's writes into a peer core's local buffer, ordered with the owner's TPipe (devkit backend).

An AIV copies data into its AIC's L1 (TSCM: copy_ubuf_to_cbuf) and the AIC copies it back into the AIV's UB
(copy_cbuf_to_ubuf). The library's CPU mode fills a core's UB and L1 with random words when that core
constructs its TPipe (TPipe::SetBufferCtx); the device does not. matmul_tscm_src_vecout gave a wrong answer
in about one run in three because its AIVs' copy of A sometimes reached the AIC's L1 before the AIC had
built its TPipe, and the fill then replaced A (runtime/devkit/include/ascgen_devkit/peer.h). The kernel
below forces that interleaving in both directions, so the test fails on every run without the ordering:
each core builds its TPipe only after the peer has written into its buffer and said so with a flag.
benchmarks/bench_devkit.py sweep --repeat stresses the example itself (docs/devkit-sweep.md).
"""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.runtime.loader import load
from tests import devkit_tree

ORDER = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t N = 512;                          // halves: 1 KB, 32 blocks of 32 bytes
constexpr uint32_t UB_IN = 0, UB_BACK = 4096;        // byte offsets in the AIV's UB
extern "C" __global__ __mix__(1, 1) void tscm_order(GM_ADDR x, GM_ADDR y) {
    if ASCEND_IS_AIV {
        GlobalTensor<half> xg, yg;
        xg.SetGlobalBuffer((__gm__ half*)x, N);
        yg.SetGlobalBuffer((__gm__ half*)y, N);
        LocalTensor<half> in(TPosition::VECIN, UB_IN, N), back(TPosition::VECIN, UB_BACK, N);
        LocalTensor<half> l1(TPosition::A1, 0, N);
        DataCopy(in, xg, N);
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        DataCopy(l1, in, N);                         // UB -> the AIC's L1
        CrossCoreSetFlag<0x2, PIPE_MTE3>(8);
        CrossCoreWaitFlag(9);                        // the AIC has written `back` ...
        TPipe pipe;                                  // ... before this core's TPipe
        DataCopy(yg, back, N);
    }
    if ASCEND_IS_AIC {
        CrossCoreWaitFlag(8);                        // the AIV has written L1 ...
        TPipe pipe;                                  // ... before this core's TPipe
        LocalTensor<half> l1(TPosition::A1, 0, N), back(TPosition::VECIN, UB_BACK, N);
        copy_cbuf_to_ubuf((void*)back.GetPhyAddr(), (void*)l1.GetPhyAddr(), 0, 1, N * sizeof(half) / 32, 0, 0);
        CrossCoreSetFlag<0x2, PIPE_MTE1>(9);
    }
}
"""


@pytest.fixture(scope="module")
def tree():
    return devkit_tree.require()


def test_a_peer_write_before_the_owners_tpipe_survives_its_fill(tree):
    module = load(ORDER, "ascend950", backend="devkit", filename="tscm_order.cpp")
    rng = np.random.default_rng(11)
    # 100 launches: each core published its UB, then its L1, under one task stamp, so a peer could read the
    # L1 base before it was stored and copy to address 0 (a segfault in about one launch in 40). The
    # stamp is per buffer now (runtime/core/state.h).
    for _ in range(100):
        x = rng.standard_normal(512).astype(np.float16)
        y = np.zeros_like(x)
        module.launch("tscm_order", 1, x, y)
        np.testing.assert_array_equal(y.view(np.uint16), x.view(np.uint16))


def test_a_dav3510_matmul_with_a_tscm_input_is_no_longer_refused():
    from ascgen import products
    from ascgen.runtime.backends.devkit import toolchain as devkit
    text = ("AscendC::Matmul<\n"
            "    AscendC::MatmulType<AscendC::TPosition::TSCM, CubeFormat::NZ, half, false, LayoutMode::NONE, false,\n"
            "                        AscendC::TPosition::VECOUT>,\n"
            "    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>> mm;\n")
    devkit.check_matmul_inputs(text, "k.asc", products.get("ascend950"))
