"""Known answers for the element rules (runtime/common/ascgen_common/elementwise.h, docs/semantics.md
"Element rules") on the three vector models: the builtin library, the dav_c220 model (devkit backend,
ascend910b) and the dav_3510 register model (devkit backend, ascend950; the library's level-2 calls run on
its register API there). One kernel runs every edge at once: int32 overflow of add / sub / mul, shifts by
0, 31 and the width of negative values, NaN and -0 in Max / Min / Relu / Abs, compares with NaN and -0,
integer division by 0 and INT_MIN / -1 (not dav_c220: its library takes half / float only), float -> int32
of NaN / +-inf / out of range with two roundings, float -> half ties (Cast and Compare not on dav_3510: its
level-2 forms reach register intrinsics the model does not implement; the rule there is the same code). Each result is checked bit for bit
against numpy, so the three models agree with each other by construction. The kernel also gathers a
buffer into itself (issue 19's in-place vgather) on the builtin and dav_c220 models, and two cores
hand a value over through a GM flag polled with GlobalTensor::GetValue (issue 25 point 4)."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.runtime.loader import load
from tests import devkit_tree

N = 64          # one 256-byte repeat of 32-bit lanes
ROWS = 22       # output rows of N words
KERNEL = """
#define ROWS 22
#include "kernel_operator.h"
using namespace AscendC;

// A GM flag handshake through GlobalTensor scalar accesses (issue 25 point 4): core 1 announces itself,
// core 0 waits for it, takes a while, then writes a value and a flag; core 1 polls the flag and reads the
// value. A poll the compiler hoisted or deleted hangs or reads a stale 0.
__aicore__ inline void handshake(GM_ADDR hs) {
    GlobalTensor<int32_t> h;
    h.SetGlobalBuffer((__gm__ int32_t*)hs, 8);
    if (GetBlockIdx() == 1) {
        h.SetValue(1, 1);
        while (h.GetValue(0) == 0) {}
        h.SetValue(3, h.GetValue(2) + 1);
    } else {
        while (h.GetValue(1) == 0) {}
        for (volatile int64_t i = 0; i < 20000000; ++i) {}
        h.SetValue(2, 42);
        h.SetValue(0, 1);
    }
}

extern "C" __global__ __aicore__ void edges(GM_ADDR fin, GM_ADDR iin, GM_ADDR out, GM_ADDR hs) {
    handshake(hs);
    if (GetBlockIdx() != 0) return;
    GlobalTensor<float> fg;
    GlobalTensor<int32_t> ig, og;
    fg.SetGlobalBuffer((__gm__ float*)fin, 2 * 64);
    ig.SetGlobalBuffer((__gm__ int32_t*)iin, 2 * 64);
    og.SetGlobalBuffer((__gm__ int32_t*)out, ROWS * 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32 * 1024);
    LocalTensor<float> fa = b.Get<float>(), fb = fa[64];
    LocalTensor<int32_t> ia = fa[128].ReinterpretCast<int32_t>(), ib = fa[192].ReinterpretCast<int32_t>();
    LocalTensor<int32_t> o = fa[256].ReinterpretCast<int32_t>();
    DataCopy(fa, fg, 128);
    DataCopy(ia, ig, 128);
    Duplicate(o, int32_t(0x55555555), ROWS * 64);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> of = o.ReinterpretCast<float>();
    Max(of[0 * 64], fa, fb, 64);
    Min(of[1 * 64], fa, fb, 64);
    Relu(of[2 * 64], fa, 64);
    Abs(of[3 * 64], fa, 64);
    Add(o[4 * 64], ia, ib, 64);
    Sub(o[5 * 64], ia, ib, 64);
    Mul(o[6 * 64], ia, ib, 64);
    ShiftLeft(o[7 * 64], ia, int32_t(31), 64);
    ShiftLeft(o[8 * 64], ia, int32_t(32), 64);
    ShiftRight(o[9 * 64], ia, int32_t(31), 64);
    ShiftRight(o[10 * 64], ia, int32_t(32), 64);
#if __NPU_ARCH__ != 3510
    Cast(o[11 * 64], fa, RoundMode::CAST_RINT, 64);
    Cast(o[12 * 64], fa, RoundMode::CAST_TRUNC, 64);
    Cast(o[13 * 64].ReinterpretCast<half>(), fb, RoundMode::CAST_NONE, 64);   // 64 halves: 32 words
#endif
#if __NPU_ARCH__ != 3510
    Compare(o[14 * 64].ReinterpretCast<uint8_t>(), fa, fb, CMPMODE::EQ, 64);   // 64 bits: 2 words
    Compare(o[18 * 64].ReinterpretCast<uint8_t>(), fa, fb, CMPMODE::NE, 64);
    Compare(o[19 * 64].ReinterpretCast<uint8_t>(), fa, fb, CMPMODE::LT, 64);
    Compare(o[20 * 64].ReinterpretCast<uint8_t>(), fa, fb, CMPMODE::GE, 64);
#endif
    Maxs(of[15 * 64], fa, 0.0f, 64);
    Mins(of[16 * 64], fa, -0.0f, 64);
#if !defined(ASCGEN_DEVKIT) || __NPU_ARCH__ == 3510
    Div(o[17 * 64], ia, ib, 64);
#endif
    // In-place Gather (a pair swap, as RoPE does): each repeat reads its sources before it writes.
    LocalTensor<uint32_t> offs = fa[2048].ReinterpretCast<uint32_t>();
    for (int i = 0; i < 64; ++i) offs.SetValue(i, uint32_t((i ^ 1) * 4));
    Adds(o[21 * 64], ia, int32_t(0), 64);
    PipeBarrier<PIPE_ALL>();
#if __NPU_ARCH__ != 3510
    Gather(o[21 * 64], o[21 * 64], offs, 0, 64);
#endif
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, o, ROWS * 64);
}
"""

NAN, INF = np.float32("nan"), np.float32("inf")
I32 = np.iinfo(np.int32)


def _inputs():
    rng = np.random.default_rng(3)
    fa = rng.standard_normal(N).astype(np.float32) * 4
    fb = rng.standard_normal(N).astype(np.float32) * 4
    edges_a = [NAN, 1, NAN, -0.0, 0.0, -0.0, 3, -INF, INF, 3e9, -3e9, 2.5, -2.5, 0.5, -0.5, 1.5]
    edges_b = [1, NAN, NAN, 0.0, -0.0, -0.0, 3, 5, -0.0, 1 + 2**-11, 1 + 3 * 2**-11, 65519, -NAN, 2049, 1e-8, 0]
    fa[:len(edges_a)] = edges_a
    fb[:len(edges_b)] = edges_b
    ia = rng.integers(-1000, 1000, N).astype(np.int32)
    ib = rng.integers(1, 50, N).astype(np.int32) * rng.choice([-1, 1], N).astype(np.int32)
    ia[:10] = [I32.max, I32.min, I32.min, -7, 7, 12345, -1, 0, 65536, -65536]
    ib[:10] = [1, -1, 1, 0, 0, 0, -1, 0, 65536, 65536]
    return fa, fb, ia, ib


def _expected(fa, fb, ia, ib):
    """The rules, computed independently in numpy (wide arithmetic, then the rule's edge cases)."""
    def wrap(x):
        return (np.asarray(x, np.int64) & 0xFFFFFFFF).astype(np.uint32).view(np.int32)

    def ieee_max(a, b):
        out = np.where(a > b, a, b)
        out = np.where((a == 0) & (b == 0), np.where(np.signbit(a), b, a), out)
        return np.where(np.isnan(a), a, np.where(np.isnan(b), b, out)).astype(np.float32)

    def ieee_min(a, b):
        out = np.where(a < b, a, b)
        out = np.where((a == 0) & (b == 0), np.where(np.signbit(a), a, b), out)
        return np.where(np.isnan(a), a, np.where(np.isnan(b), b, out)).astype(np.float32)

    def to_i32(x, rnd):
        with np.errstate(invalid="ignore"):
            r = rnd(x.astype(np.float64))
            r = np.where(np.isnan(r), 0, np.clip(r, I32.min, I32.max))
        return r.astype(np.int32)

    a64, b64 = ia.astype(np.int64), ib.astype(np.int64)
    safe = np.where(b64 == 0, 1, b64)
    quotient = np.where(b64 == 0, -1, np.trunc(a64 / safe).astype(np.int64))   # C division truncates
    z = np.zeros(N, np.float32)
    return {
        "max": ieee_max(fa, fb), "min": ieee_min(fa, fb), "relu": ieee_max(fa, z), "abs": np.abs(fa),
        "add": wrap(a64 + b64), "sub": wrap(a64 - b64), "mul": wrap(a64 * b64),
        "shl31": wrap(a64 << 31), "shl32": np.zeros(N, np.int32),
        "shr31": (ia >> 31).astype(np.int32), "shr32": np.where(ia < 0, -1, 0).astype(np.int32),
        "cast_rint": to_i32(fa, np.rint), "cast_trunc": to_i32(fa, np.trunc),
        "cast_half": fb.astype(np.float16),
        "eq": fa == fb, "ne": fa != fb, "lt": fa < fb, "ge": fa >= fb,
        "maxs0": ieee_max(fa, z), "mins_neg0": ieee_min(fa, np.full(N, -0.0, np.float32)),
        "div": wrap(quotient), "gather_in_place": ia[np.arange(N) ^ 1],
    }


def _results(o: np.ndarray) -> dict:
    row = lambda k: o[k * N:(k + 1) * N]
    bits = lambda k: np.unpackbits(o[k * N:k * N + 2].view(np.uint8), bitorder="little").astype(bool)
    return {
        "max": row(0).view(np.float32), "min": row(1).view(np.float32), "relu": row(2).view(np.float32),
        "abs": row(3).view(np.float32), "add": row(4), "sub": row(5), "mul": row(6), "shl31": row(7),
        "shl32": row(8), "shr31": row(9), "shr32": row(10), "cast_rint": row(11), "cast_trunc": row(12),
        "cast_half": row(13)[:N // 2].view(np.float16), "eq": bits(14), "ne": bits(18), "lt": bits(19),
        "ge": bits(20), "maxs0": row(15).view(np.float32), "mins_neg0": row(16).view(np.float32), "div": row(17),
        "gather_in_place": row(21),
    }


MODELS = {"builtin": ("builtin", "ascend910b"), "dav_c220": ("devkit", "ascend910b"),
          "dav_3510": ("devkit", "ascend950")}


@pytest.fixture(scope="module")
def inputs():
    return _inputs()


@pytest.mark.parametrize("model", list(MODELS))
def test_every_edge_has_the_rule_s_answer(model, inputs):
    backend, product = MODELS[model]
    if backend == "devkit":
        devkit_tree.require()
    fa, fb, ia, ib = inputs
    out, hs = np.zeros(ROWS * N, np.int32), np.zeros(8, np.int32)
    load(KERNEL, product, backend=backend, filename="edges.cpp").launch(
        "edges", 2, np.concatenate([fa, fb]), np.concatenate([ia, ib]), out, hs, time_limit_s=60)
    assert hs[:4].tolist() == [1, 1, 42, 43], f"{model}: the GM flag handshake read a stale value: {hs[:4]}"
    got, want = _results(out), _expected(fa, fb, ia, ib)
    if model == "dav_c220":
        del want["div"]                  # the dav_c220 library has no integer Div (static_assert half / float)
    if model == "dav_3510":
        del want["gather_in_place"]      # its Gather loads a register before it stores (no vgather)
        # Its level-2 Cast and Compare reach vcvt / vlds forms the register model lacks (named at link:
        # the library's Compare switches on a run-time CMPMODE, so its loads keep a run-time distribution).
        for name in ("cast_rint", "cast_trunc", "cast_half", "eq", "ne", "lt", "ge"):
            del want[name]
    wrong = []
    for name, expected in want.items():
        g = np.asarray(got[name])
        if expected.dtype.kind == "f":   # bit for bit, every NaN the same NaN class
            same = (g.view(f"u{g.itemsize}") == expected.view(f"u{g.itemsize}")) | (np.isnan(g) & np.isnan(expected))
        else:
            same = g == expected
        if not same.all():
            i = int(np.argmin(same))
            wrong.append(f"{name}[{i}]: got {g[i]!r}, want {expected[i]!r} (inputs {fa[i]!r} {fb[i]!r} {ia[i]} {ib[i]})")
    assert not wrong, f"{model}:\n" + "\n".join(wrong)
