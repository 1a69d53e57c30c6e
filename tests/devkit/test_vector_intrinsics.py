"""The rearranging vector intrinsics of the devkit backend (runtime/devkit/include/ascgen_devkit/
rearrange.h, sort.h, the group reductions in cmpsel.h), reached through the real library's API.

One kernel calls BlockReduceSum/Max/Min (vcgadd/vcgmax/vcgmin), PairReduceSum (vcpadd), Brcb (vbrcb),
GatherMask with a built-in and a tensor pattern (vreducev2, get_rsvd_cnt), Gather (vgather), Sort32 and
MrgSort (vbitsort, vmrgsort4, get_vms4_sr), Transpose (vtranspose) and TransDataTo5HD for 2-, 4- and
1-byte elements (scatter_vnchwconv_b16/b32/b8 over set_va_reg_sb). Every result is checked bit for bit
against numpy, and everything the builtin backend also has is compared with it byte for byte.
The 4- and 1-byte TransDataTo5HD forms exist on the devkit backend only (`#ifdef ASCGEN_DEVKIT`). The
kernel also takes a 24-byte struct by value (host_trampoline.h passes it by address).
"""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.runtime.loader import load
from tests import devkit_tree

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

struct RowsCols { uint32_t rows, cols, pad[4]; };   // 24 bytes passed by value, like a tiling struct

extern "C" __global__ __aicore__ void rearrange(GM_ADDR x, GM_ADDR u, GM_ADDR out, RowsCols shape) {
    GlobalTensor<float> xg, og;
    GlobalTensor<uint32_t> ug;
    xg.SetGlobalBuffer((__gm__ float*)x, 256);
    ug.SetGlobalBuffer((__gm__ uint32_t*)u, 128);
    og.SetGlobalBuffer((__gm__ float*)out, 4096);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 96 * 1024);
    LocalTensor<float> all = b.Get<float>();
    LocalTensor<float> f = all, o = all[4096], scratch = all[8192];
    LocalTensor<uint32_t> idx = all[256].ReinterpretCast<uint32_t>();
    DataCopy(f, xg, 256);
    DataCopy(idx, ug, 128);
    Duplicate(o, -1.0f, 4096);
    PipeBarrier<PIPE_ALL>();

    BlockReduceSum(o, f, 4, 64, 1, 1, 8);                // [0, 32): one sum per block
    BlockReduceMax(o[32], f, 4, 64, 1, 1, 8);            // [32, 64)
    BlockReduceMin(o[64], f, 4, 60, 1, 1, 8);            // [64, 96): the last block of a repeat half masked
    PairReduceSum(o[128], f, 4, 64, 1, 1, 8);            // [128, 256)
    Brcb(o[256], f, 2, {1, 8});                          // [256, 384): 16 elements to 16 blocks

    uint64_t kept0 = 0, kept1 = 0;
    GatherMask(o[384], f, 1, false, 0, {1, 4, 8, 0}, kept0);          // [384, 512): even lanes
    LocalTensor<uint32_t> pattern = scratch.ReinterpretCast<uint32_t>();
    Duplicate(pattern, 0x8421F00Du, 8);
    PipeBarrier<PIPE_V>();
    GatherMask(o[512], f[64], pattern, true, 50, {1, 1, 8, 0}, kept1);  // [512, ...): 50 lanes, tensor bits
    Gather(o[640], f, idx, 0, 64);                       // [640, 704): by byte offsets idx[0, 64)

    LocalTensor<float> sorted = o[768];                  // [768, 896): 64 (score, index) entries
    Sort32(sorted, f, idx[64], 2);
    PipeBarrier<PIPE_V>();
    uint16_t lens[4] = {32, 32, 0, 0};
    MrgSort(o[896], MrgSortSrcList<float>(sorted, sorted[64], sorted[64], sorted[64]),
            MrgSort4Info(lens, false, 3, 1));            // [896, 1024): the two lists merged
    uint16_t took[4] = {0, 0, 0, 0};
    GetMrgSortResult(took[0], took[1], took[2], took[3]);

    LocalTensor<half> h = scratch[256].ReinterpretCast<half>();
    Cast(h, f, RoundMode::CAST_NONE, 256);
    PipeBarrier<PIPE_V>();
    Transpose(o[1024].ReinterpretCast<half>(), h);        // [1024, 1152): 16 x 16 half
    uint64_t dl[16], sl[16];
    for (int i = 0; i < 16; ++i) {
        sl[i] = (uint64_t)h[i * 16].GetPhyAddr();
        dl[i] = (uint64_t)o[1152 + i * 8].GetPhyAddr();
    }
    TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 0));   // [1152, 1280)
#ifdef ASCGEN_DEVKIT
    for (int i = 0; i < 16; ++i) {
        sl[i] = (uint64_t)f[i * 8].GetPhyAddr();
        dl[i] = (uint64_t)o[1280 + i * 8].GetPhyAddr();
    }
    TransDataTo5HD<float>(dl, sl, TransDataTo5HDParams(false, false, 2, 16, 16));  // [1280, 1536), 2 repeats
    LocalTensor<int8_t> bytes = f.ReinterpretCast<int8_t>();
    for (int i = 0; i < 16; ++i) {
        sl[i] = (uint64_t)bytes[i * 32].GetPhyAddr();
        dl[i] = (uint64_t)o[1536 + i * 8].GetPhyAddr();
    }
    TransDataTo5HD<int8_t>(dl, sl, TransDataTo5HDParams(false, true, 1, 0, 0));   // [1536, 1664): high halves in
    TransDataTo5HD<int8_t>(dl, sl, TransDataTo5HDParams(true, false, 1, 0, 0));   // low halves to the high half
#endif
    PipeBarrier<PIPE_ALL>();
    o.SetValue(4000, float(kept0));
    o.SetValue(4001, float(kept1));
    for (int i = 0; i < 4; ++i) o.SetValue(4002 + i, float(took[i]));
    o.SetValue(4006, float(shape.rows));
    o.SetValue(4007, float(shape.pad[3]));
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, o, 4096);
}
"""

SHARED = [(0, 96), (128, 384), (384, 512), (512, 640), (640, 704), (768, 1280), (4000, 4008)]
SHAPE = np.array([3, 4, 0, 0, 0, 11], np.uint32).tobytes()      # the kernel's 24-byte struct RowsCols


@pytest.fixture(scope="module")
def inputs():
    rng = np.random.default_rng(7)
    x = rng.standard_normal(256).astype(np.float32)
    u = np.concatenate([rng.integers(0, 256, 64) * 4, np.arange(64)]).astype(np.uint32)
    return x, u


@pytest.fixture(scope="module")
def outputs(inputs):
    devkit_tree.require()
    x, u = inputs
    result = {}
    for backend in ("builtin", "devkit"):
        out = np.zeros(4096, np.float32)
        load(KERNEL, "ascend910b", backend=backend, filename="rearrange.cpp").launch("rearrange", 1, x, u, out, SHAPE)
        result[backend] = out
    return result


def _bits(a):
    return np.asarray(a, np.float32).view(np.uint32)


def _sequential_sum(rows):
    """Each row summed left to right in float32, as the vector unit folds a block (numpy sums pairwise)."""
    acc = rows[:, 0].copy()
    for j in range(1, rows.shape[1]):
        acc = (acc + rows[:, j]).astype(np.float32)
    return acc


def _entries(scores, index):
    e = np.zeros(len(scores) * 2, np.float32)
    e[0::2] = scores
    e.view(np.uint32)[1::2] = index
    return e


def test_every_result_matches_numpy(inputs, outputs):
    x, u = inputs
    o = outputs["devkit"]
    blocks = x.reshape(32, 8)
    np.testing.assert_array_equal(_bits(o[0:32]), _bits(_sequential_sum(blocks)))
    np.testing.assert_array_equal(o[32:64], blocks.max(1))
    masked_min = blocks.min(1)
    masked_min[7::8] = blocks[7::8, :4].min(1)
    np.testing.assert_array_equal(o[64:96], masked_min)
    np.testing.assert_array_equal(o[128:256], x[0::2] + x[1::2])
    np.testing.assert_array_equal(o[256:384], np.repeat(x[:16], 8))
    np.testing.assert_array_equal(o[384:512], x[0::2])
    bits = np.unpackbits(np.array([0x8421F00D] * 2, "<u4").view(np.uint8), bitorder="little").astype(bool)
    kept = x[64:114][bits[:50]]
    np.testing.assert_array_equal(o[512:512 + len(kept)], kept)
    assert o[4000:4002].tolist() == [128, len(kept)]
    np.testing.assert_array_equal(o[640:704], x[u[:64] // 4])
    order = [np.argsort(-x[g * 32:(g + 1) * 32], kind="stable") + g * 32 for g in range(2)]
    np.testing.assert_array_equal(_bits(o[768:896]), _bits(_entries(x[np.concatenate(order)], np.concatenate(order))))
    merged = np.argsort(-x[:64], kind="stable")
    np.testing.assert_array_equal(_bits(o[896:1024]), _bits(_entries(x[merged], merged)))
    assert o[4002:4006].tolist() == [32, 32, 0, 0]
    assert o[4006:4008].tolist() == [3, 11]      # the struct passed by value arrived whole
    h = x.astype(np.float16)
    np.testing.assert_array_equal(o[1024:1152].view(np.float16), h[:256].reshape(16, 16).T.ravel())
    np.testing.assert_array_equal(o[1152:1280].view(np.float16), h[:256].reshape(16, 16).T.ravel())


def test_transdata_of_4_and_1_byte_elements_matches_numpy(inputs, outputs):
    x, _ = inputs
    o = outputs["devkit"]
    for r in range(2):      # 16 blocks of 8 floats; column k -> blocks 2k (rows 0-7) and 2k+1 (rows 8-15)
        m = x[r * 128:(r + 1) * 128].reshape(16, 8)
        np.testing.assert_array_equal(o[1280 + r * 128:1280 + (r + 1) * 128], m.T.ravel())
    src = x.view(np.int8)[:512].reshape(16, 32)
    got = o[1536:1664].view(np.int8).reshape(16, 32)
    np.testing.assert_array_equal(got[:, :16], src[:, 16:].T)   # high halves, transposed, to the low halves
    np.testing.assert_array_equal(got[:, 16:], src[:, :16].T)   # low halves to the high halves


def test_the_builtin_backend_agrees_byte_for_byte(outputs):
    for lo, hi in SHARED:
        assert outputs["devkit"][lo:hi].tobytes() == outputs["builtin"][lo:hi].tobytes(), (lo, hi)
