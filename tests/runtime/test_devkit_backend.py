"""The devkit backend (docs/devkit.md): the real asc-devkit library compiled against ascgen's CPU model.

Without the asc-devkit tree the tree-dependent tests skip with the instruction, and fail when CI is set
(tests/devkit_tree.py). Each devkit compile costs seconds against the real headers (a precompiled header is
built once per cache), so this file keeps to a handful of small kernels, each compiled once."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
import pytest

from ascgen.errors import (CompileError, HangError, KernelAssertError, KernelMemoryError, SpecError,
                           UnsupportedProductError)
from ascgen.runtime.loader import load
from tests import devkit_tree
from tests.paths import REPO

ADD = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
    AscendC::GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    yg.SetGlobalBuffer((__gm__ float*)y, n);
    zg.SetGlobalBuffer((__gm__ float*)z, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 3 * 256 * sizeof(float));
    AscendC::LocalTensor<float> a = b.Get<float>(), c = a[256], d = a[512];
    AscendC::DataCopy(a, xg[AscendC::GetBlockIdx() * 256], 256);
    AscendC::DataCopy(c, yg[AscendC::GetBlockIdx() * 256], 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(d, a, c, 256);
    AscendC::Relu(d, d, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zg[AscendC::GetBlockIdx() * 256], d, 256);
}
"""

# Many element-wise forms in one kernel: conversions with rounding, compare to a bit mask, select,
# scalar ops, a whole-tensor reduction (the accumulating vcadd), a mask/repeat-stride (level 0) call,
# in-place ops (the vectorised flat loop), a destination partly overlapping its source (the ordered loop),
# half -> packed int4 with floor and saturation, and (devkit only: the builtin Cast has no int4 source) back.
MIXED = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void mixed(GM_ADDR x, GM_ADDR out) {
    AscendC::GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, 256);
    og.SetGlobalBuffer((__gm__ float*)out, 1184);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 64 * 1024);
    AscendC::LocalTensor<float> all = b.Get<float>();
    AscendC::LocalTensor<float> f = all, g = all[256], r = all[512], w = all[1024], s = all[1280];
    AscendC::LocalTensor<half> h = all[2048].ReinterpretCast<half>();
    AscendC::LocalTensor<uint8_t> m = all[4096].ReinterpretCast<uint8_t>();
    AscendC::DataCopy(f, xg, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Cast(h, f, AscendC::RoundMode::CAST_ROUND, 256);
    AscendC::Cast(g, h, AscendC::RoundMode::CAST_NONE, 256);
    AscendC::CompareScalar(m, f, 0.5f, AscendC::CMPMODE::LT, 256);
    AscendC::Select(r, m, f, g, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);
    AscendC::ReduceSum(w, f, w[64], 256);
    AscendC::Muls(g, g, 2.0f, 256);
    AscendC::LeakyRelu(g, g, 0.1f, 256);
    uint64_t mask[2] = {0x5555555555555555ull, 0};
    AscendC::Duplicate(s, 0.0f, 256);
    AscendC::Exp(s, f, mask, 2, {1, 1, 8, 8});
    AscendC::LocalTensor<float> o = all[1536];
    AscendC::Adds(o, f, 0.0f, 248);
    AscendC::Adds(o[8], o, 1.0f, 240);   // the destination overlaps the source 8 elements on: elements in order
    AscendC::LocalTensor<half> h2 = all[2304].ReinterpretCast<half>(), h3 = all[2688].ReinterpretCast<half>();
    AscendC::LocalTensor<AscendC::int4b_t> q = all[2560].ReinterpretCast<AscendC::int4b_t>();
    AscendC::Muls(h2, h, (half)24.0f, 256);
    AscendC::Cast(q, h2, AscendC::RoundMode::CAST_FLOOR, 256);
    AscendC::Duplicate(h3, (half)0.0f, 256);
#if defined(ASCGEN_DEVKIT)
    AscendC::Cast(h3, q, AscendC::RoundMode::CAST_NONE, 256);
#endif
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(og, r, 256);
    AscendC::DataCopy(og[256], g, 256);
    AscendC::DataCopy(og[512], s, 256);
    AscendC::DataCopy(og[768], w, 8);
    AscendC::DataCopy(og[776], o, 248);
    AscendC::DataCopy(og[1024], q.ReinterpretCast<float>(), 32);
    AscendC::DataCopy(og[1056], h3.ReinterpretCast<float>(), 128);
}
"""

# Each core fills its UB with its block index, meets the others at the library's own SyncAll, stores UB:
# with one shared module image every core would store the last writer's index.
ISOLATION = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void fill(GM_ADDR out) {
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t*)out + AscendC::GetBlockIdx() * 64, 64);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 64 * 4);
    AscendC::LocalTensor<int32_t> t = b.Get<int32_t>();
    AscendC::Duplicate(t, (int32_t)AscendC::GetBlockIdx(), 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::SyncAll();
    AscendC::DataCopy(o, t, 64);
}
"""

# Seeded faults whose lines the reports must name (docs/devkit.md, "Reports"): a vector op writing past the
# end of UB, a tensor offset the library's own check refuses, and a SyncAll only the even cores reach (a hang).
FAULTS = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void ub_overflow(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 3 * 256 * sizeof(float));
    AscendC::LocalTensor<float> a = b.Get<float>();
    AscendC::Duplicate(a, 1.0f, 256);
    AscendC::Add(a, a, a, 64 * 1024);       // 256 KB of floats: past the end of the 192 KB UB
}
extern "C" __global__ __aicore__ void offset_past_the_tensor(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 256 * sizeof(float));
    AscendC::LocalTensor<float> a = b.Get<float>();
    AscendC::Duplicate(a[4096], 1.0f, 256);      // the library's own check stops this
}
extern "C" __global__ __aicore__ void assert_positive(GM_ADDR x, int32_t v) {
    ascendc_assert(v > 0, "v must be positive");
    assert(v < 100);
}
namespace user {                              // the library's check macro in a kernel's own namespace
using namespace AscendC;
__aicore__ inline void Check(int32_t v) { ASCENDC_ASSERT(v > 0, {}); }
}
extern "C" __global__ __aicore__ void check_in_user_namespace(GM_ADDR x, int32_t v) { user::Check(v); }
extern "C" __global__ __aicore__ void even_cores_sync_all(GM_ADDR x) {
    if (AscendC::GetBlockIdx() % 2 == 0) {
        AscendC::SyncAll();
    }
}
"""

# Vector forms of the library's dav_m200 code (ascend310p): conversions, scalar and binary ops, Exp, Div, a
# masked level-0 Mul, on 4 cores.
VECTOR_310P = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void vec(GM_ADDR x, GM_ADDR out) {
    AscendC::GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x + AscendC::GetBlockIdx() * 512, 512);
    og.SetGlobalBuffer((__gm__ float*)out + AscendC::GetBlockIdx() * 2048, 2048);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32 * 1024);
    AscendC::LocalTensor<float> all = b.Get<float>();
    AscendC::LocalTensor<float> f = all, g = all[512], r = all[1024], s = all[1536];
    AscendC::LocalTensor<half> h = all[4096].ReinterpretCast<half>();
    AscendC::DataCopy(f, xg, 512);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Cast(h, f, AscendC::RoundMode::CAST_NONE, 512);
    AscendC::Cast(g, h, AscendC::RoundMode::CAST_NONE, 512);
    AscendC::Muls(r, f, 3.0f, 512);
    AscendC::Adds(r, r, -0.5f, 512);
    AscendC::Max(r, r, g, 512);
    AscendC::Relu(r, r, 512);
    AscendC::Exp(s, f, 512);
    AscendC::Div(s, s, g, 512);
    uint64_t mask[2] = {0x5555555555555555ull, 0};
    AscendC::Mul(g, f, f, mask, 8, {1, 1, 1, 8, 8, 8});
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(og, f, 512);
    AscendC::DataCopy(og[512], g, 512);
    AscendC::DataCopy(og[1024], r, 512);
    AscendC::DataCopy(og[1536], s, 512);
}
"""

# MulCast (half x half -> int8) needs vmulconv_f162s8, which the backend does not implement.
MISSING = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void mulcast(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    AscendC::LocalTensor<half> t = b.Get<half>();
    AscendC::MulCast(t[1024].ReinterpretCast<int8_t>(), t, t[512], 256);
}
"""


# The system workspace (GetSysWorkSpacePtr, where the Matmul API keeps its message queues) is a buffer of its
# own per launch: the kernel fills its whole workspace argument, then reads both ends of the system workspace
# (zero, and inside a GM buffer of the launch) and dirties it for the next launch.
WS_PROBE = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void ws_probe(GM_ADDR out, GM_ADDR workspace) {
    constexpr uint32_t SYS = 16 * 1024 * 1024;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 2048);
    AscendC::LocalTensor<uint8_t> t = b.Get<uint8_t>();
    AscendC::GlobalTensor<uint8_t> ws, sys, og;
    ws.SetGlobalBuffer((__gm__ uint8_t*)workspace, 4096);
    sys.SetGlobalBuffer(GetSysWorkSpacePtr(), SYS);
    og.SetGlobalBuffer((__gm__ uint8_t*)out, 64);
    AscendC::Duplicate(t.ReinterpretCast<uint16_t>(), (uint16_t)0xABAB, 1024);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (int i = 0; i < 4; ++i) AscendC::DataCopy(ws[i * 1024], t, 1024);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(t[1024], sys, 32);
    AscendC::DataCopy(t[1056], sys[SYS - 32], 32);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(og, t[1024], 64);
    AscendC::DataCopy(sys, t, 32);
    AscendC::DataCopy(sys[SYS - 32], t, 32);
}
"""


# dav_3510 (ascend950): a vector function on registers (Reg::), 200 floats per core (three full repeats and
# a tail of 8 under UpdateMask): add, multiply, compare to a predicate, select, interleave, a reduction. The
# second kernel loads a register from past the end of UB.
REG_3510 = """
#include "kernel_operator.h"
constexpr uint32_t N = 200, VL = 64;
__simd_vf__ inline void RegMix(__ubuf__ float* x, __ubuf__ float* y, __ubuf__ float* out, __ubuf__ float* pairs,
                               __ubuf__ float* sums)
{
    uint32_t left = N;
    AscendC::Reg::RegTensor<float> a, b, s, p, m, lo, hi, r;
    AscendC::Reg::MaskReg mask, gt;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::ALL>();
    for (uint32_t i = 0; i < (N + VL - 1) / VL; ++i) {
        mask = AscendC::Reg::UpdateMask<float>(left);
        AscendC::Reg::LoadAlign(a, x + i * VL);
        AscendC::Reg::LoadAlign(b, y + i * VL);
        AscendC::Reg::Add(s, a, b, mask);
        AscendC::Reg::Mul(p, a, b, mask);
        AscendC::Reg::Compare<float, AscendC::CMPMODE::GT>(gt, a, b, mask);
        AscendC::Reg::Select(m, s, p, gt);
        AscendC::Reg::StoreAlign(out + i * VL, m, mask);
        AscendC::Reg::Interleave(lo, hi, a, b);
        AscendC::Reg::StoreAlign(pairs + 2 * i * VL, lo, all);
        AscendC::Reg::StoreAlign(pairs + 2 * i * VL + VL, hi, all);
        AscendC::Reg::Reduce<AscendC::ReduceType::SUM>(r, a, mask);
        AscendC::Reg::StoreAlign(sums + i * VL, r, all);
    }
}
extern "C" __global__ __aicore__ void reg_mix(GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR pairs, GM_ADDR sums) {
    const uint32_t core = AscendC::GetBlockIdx();
    AscendC::GlobalTensor<float> xg, yg, og, pg, sg;
    xg.SetGlobalBuffer((__gm__ float*)x + core * 256, 256);
    yg.SetGlobalBuffer((__gm__ float*)y + core * 256, 256);
    og.SetGlobalBuffer((__gm__ float*)out + core * 256, 256);
    pg.SetGlobalBuffer((__gm__ float*)pairs + core * 512, 512);
    sg.SetGlobalBuffer((__gm__ float*)sums + core * 256, 256);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1536 * sizeof(float));
    AscendC::LocalTensor<float> t = b.Get<float>();
    AscendC::DataCopy(t, xg, 256);
    AscendC::DataCopy(t[256], yg, 256);
    AscendC::Duplicate(t[512], -1.0f, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    auto ub = [&](uint32_t at) { return (__ubuf__ float*)t[at].GetPhyAddr(); };
    asc_vf_call<RegMix>(ub(0), ub(256), ub(512), ub(768), ub(1280));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(og, t[512], 256);
    AscendC::DataCopy(pg, t[768], 512);
    AscendC::DataCopy(sg, t[1280], 256);
}
__simd_vf__ inline void LoadPast(__ubuf__ float* x)
{
    AscendC::Reg::RegTensor<float> a;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::ALL>();
    AscendC::Reg::LoadAlign(a, x + 256 * 1024 / sizeof(float));     // 256 KB on: past the end of UB
    AscendC::Reg::StoreAlign(x, a, all);
}
extern "C" __global__ __aicore__ void reg_past_ub(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 256 * sizeof(float));
    asc_vf_call<LoadPast>((__ubuf__ float*)b.Get<float>().GetPhyAddr());
}
"""

@pytest.fixture(scope="module")
def tree():
    return devkit_tree.require()


@pytest.fixture(scope="module")
def built(tree):
    cache = {}

    def get(name, text, backend="devkit"):
        if (name, backend) not in cache:
            cache[name, backend] = load(text, "ascend910b", backend=backend, filename=f"{name}.cpp")
        return cache[name, backend]
    return get


# ---- refusals that need no tree ----------------------------------------------------------------------

def test_unknown_backend_is_a_spec_error():
    with pytest.raises(SpecError, match="backend 'cce' is not one of builtin, devkit"):
        load(ADD, "ascend910b", backend="cce")


def test_products_the_model_lacks_are_refused_naming_what_is_missing():
    with pytest.raises(UnsupportedProductError) as err:
        load(ADD, "ascend310b", backend="devkit")
    text = str(err.value)
    assert "ascend310b" in text and "dav_m300" in text, text
    assert "dav_m200 (ascend310p" in text and "dav_3510 (ascend950)" in text and "backend='builtin'" in text, text


def test_without_the_tree_the_error_says_how_to_provide_it(monkeypatch):
    monkeypatch.delenv("ASCGEN_ASC_DEVKIT", raising=False)
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    monkeypatch.delenv("ASCGEN_CANN_SOURCES", raising=False)    # its asc-devkit/ would be found instead
    with pytest.raises(SpecError, match="ASCGEN_ASC_DEVKIT"):
        load(ADD, "ascend910b", backend="devkit")


# ---- against the real library ------------------------------------------------------------------------

def test_add_relu_on_eight_cores_is_exact(built):
    n = 8 * 256
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    y = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    z = np.zeros(n, np.float32)
    built("add", ADD).launch("add", 8, x, y, z, np.uint32(n))
    np.testing.assert_array_equal(z, np.maximum(x + y, 0))


def test_mixed_vector_forms_match_the_builtin_backend_bit_for_bit(built):
    x = (np.arange(256, dtype=np.float32) / 256 - 0.25).astype(np.float32)
    outs = {}
    for backend in ("builtin", "devkit"):
        out = np.zeros(1184, np.float32)
        built("mixed", MIXED, backend).launch("mixed", 1, x, out)
        outs[backend] = out
    # [768] is ReduceSum's result; the rest of that block is the library's scratch, not an output.
    for lo, hi in ((0, 769), (776, 1056)):
        assert outs["devkit"][lo:hi].tobytes() == outs["builtin"][lo:hi].tobytes(), \
            np.flatnonzero(outs["devkit"][lo:hi] != outs["builtin"][lo:hi])[:10]
    assert outs["devkit"][768] == np.float32(x.sum())
    shifted = x[:248].copy()
    for i in range(240):        # element by element: each write is read again 8 elements later
        shifted[8 + i] = shifted[i] + np.float32(1)
    assert outs["devkit"][776:1024].tobytes() == shifted.tobytes()
    # int4: 24 x is exact in half; floor, saturate to -8..7, element 2i in the low nibble of byte i.
    q = np.clip(np.floor(24 * x.astype(np.float64)), -8, 7).astype(np.int8)
    packed = ((q[0::2] & 0xF) | (q[1::2] << 4)).astype(np.int8)
    assert outs["devkit"][1024:1056].view(np.int8).tobytes() == packed.tobytes()
    assert (outs["devkit"][1056:].view(np.float16) == q.astype(np.float16)).all()


def test_each_core_runs_in_its_own_module_copy(built):
    out = np.full(8 * 64, -1, np.int32)
    built("fill", ISOLATION).launch("fill", 8, out)
    np.testing.assert_array_equal(out.reshape(8, 64), np.repeat(np.arange(8, dtype=np.int32)[:, None], 64, 1))


def test_one_shared_module_copy_would_mix_the_cores_up(built, tmp_path):
    """Why the copies exist: ASCGEN_DEVKIT_ONE_COPY=1 runs every core in copy 0, and the library's UB (a
    process-wide singleton) is shared; the same kernel then stores the wrong indices or hangs in SyncAll."""
    built("fill", ISOLATION)            # compiled and cached by the fixture's process
    script = textwrap.dedent(f"""
        import numpy as np
        from ascgen.runtime.loader import load
        m = load({ISOLATION!r}, "ascend910b", backend="devkit", filename="fill.cpp")
        out = np.full(8 * 64, -1, np.int32)
        m.launch("fill", 8, out)
        print(sorted(set(out.reshape(8, 64)[:, 0].tolist())))
    """)
    env = {**os.environ, "ASCGEN_DEVKIT_ONE_COPY": "1"}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=600)
    # Shared state breaks the kernel in one of two ways, depending on the schedule: the cores overwrite each
    # other's UB (wrong indices), or they share the library's flag state and SyncAll is reported as a hang.
    # Either is a clean ascgen outcome; a right answer or a crash is not.
    if proc.returncode == 0:
        assert proc.stdout.strip() != str(list(range(8))), "one shared copy gave every core its own UB"
    else:
        assert proc.returncode == 1 and "ascgen.errors.HangError" in proc.stderr, proc.stderr[-2000:]


def _line(text: str, needle: str) -> int:
    """The 1-based line of `needle` in a source given as a string (reports count lines the same way)."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_faults_name_the_users_line_and_the_library_call(built):
    """The library's inline code sits between the user's call and the intrinsic: the report still names the
    user's line, the library function called there and the intrinsic that failed."""
    n = 8 * 256
    x, y, z = (np.zeros(n, np.float32) for _ in range(3))
    with pytest.raises(KernelMemoryError) as err:
        built("add", ADD).launch("add", 8, x, np.zeros(n - 256, np.float32), z, np.uint32(n))
    where = f"add.cpp:{_line(ADD, 'DataCopy(c, yg')} (AscendC::DataCopy) -> copy_gm_to_ubuf"
    assert f"SUMMARY: ascgen: memory {where}" in str(err.value), str(err.value)
    assert err.value.site.file.endswith("add.cpp") and err.value.site.line == _line(ADD, "DataCopy(c, yg")

    mod = built("faults", FAULTS)
    with pytest.raises(KernelMemoryError) as err:
        mod.launch("ub_overflow", 1, x)
    assert f"faults.cpp:{_line(FAULTS, 'Add(a, a, a')} (AscendC::Add) -> vadd" in str(err.value), str(err.value)
    assert "outside the" in str(err.value) and "UB" in str(err.value)


def test_a_failed_check_of_the_library_is_a_typed_error_at_the_users_line(built):
    """The library's CPU-mode checks end in raise(SIGABRT); on a core that is a KernelAssertError, not an abort."""
    with pytest.raises(KernelAssertError) as err:
        built("faults", FAULTS).launch("offset_past_the_tensor", 1, np.zeros(8, np.float32))
    assert f"faults.cpp:{_line(FAULTS, 'a[4096]')} (AscendC::LocalTensor::operator[]) -> raise" in str(err.value)


def test_the_librarys_check_macro_builds_in_a_namespace_that_uses_ascendc(built):
    """ASCENDC_ASSERT's unqualified raise(SIGABRT) in a kernel's namespace with `using namespace AscendC` sees
    ascgen's AscendC::raise and glibc's ::raise: it was an ambiguous call (ops-nn fused_mat_mul did not build)."""
    built("faults", FAULTS).launch("check_in_user_namespace", 1, np.zeros(8, np.float32), 5)


def test_a_failed_assert_in_a_kernel_is_a_typed_error_and_the_process_lives_on(built):
    """assert() / ascendc_assert() are glibc's __assert_fail in the library's CPU mode (an abort of the whole
    process); on a core they are a KernelAssertError at the assertion's line, and the module runs again."""
    mod = built("faults", FAULTS)
    for v, expr in ((-1, "v > 0"), (100, "v < 100")):
        with pytest.raises(KernelAssertError) as err:
            mod.launch("assert_positive", 2, np.zeros(8, np.float32), v)
        assert f"assertion `{expr}` failed" in str(err.value), str(err.value)
        assert f"faults.cpp:{_line(FAULTS, expr)}" in str(err.value), str(err.value)
    mod.launch("assert_positive", 2, np.zeros(8, np.float32), 5)      # holds: no error, same module


def test_ascend310p_vector_kernel_matches_the_builtin_backend_bit_for_bit(tree):
    x = np.random.default_rng(0).standard_normal(4 * 512).astype(np.float32)
    outs = {}
    for backend in ("builtin", "devkit"):
        out = np.zeros(4 * 2048, np.float32)
        load(VECTOR_310P, "ascend310p", backend=backend, filename="vec310p.cpp").launch("vec", 4, x, out)
        outs[backend] = out
    assert outs["devkit"].tobytes() == outs["builtin"].tobytes(), \
        np.flatnonzero(outs["devkit"].view(np.uint32) != outs["builtin"].view(np.uint32))[:10]
    np.testing.assert_array_equal(outs["devkit"].reshape(4, 2048)[:, :512], x.reshape(4, 512))


# Gather on dav_m200 (ascend310p): the library packs vgather's operands in one config word there; 300
# lanes (a tail repeat) of float (32-bit lanes) and half (16-bit lanes) by a random byte-offset table.
GATHER_310P = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void gather(GM_ADDR x, GM_ADDR offsets, GM_ADDR out) {
    AscendC::GlobalTensor<float> xg, og;
    AscendC::GlobalTensor<uint32_t> ug;
    xg.SetGlobalBuffer((__gm__ float*)x, 320);
    ug.SetGlobalBuffer((__gm__ uint32_t*)offsets, 640);
    og.SetGlobalBuffer((__gm__ float*)out, 640);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 16 * 1024);
    AscendC::LocalTensor<float> all = b.Get<float>();
    AscendC::LocalTensor<float> f = all, g = all[320], hf = all[640];
    AscendC::LocalTensor<uint32_t> u = all[960].ReinterpretCast<uint32_t>();
    AscendC::LocalTensor<half> h = all[1600].ReinterpretCast<half>(), hg = all[1920].ReinterpretCast<half>();
    AscendC::DataCopy(f, xg, 320);
    AscendC::DataCopy(u, ug, 640);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Duplicate(g, 0.0f, 320);
    AscendC::Duplicate(hg, static_cast<half>(0), 320);
    AscendC::Cast(h, f, AscendC::RoundMode::CAST_NONE, 320);
    AscendC::Gather(g, f, u, 0, 300);
    AscendC::Gather(hg, h, u[320], 0, 300);
    AscendC::Cast(hf, hg, AscendC::RoundMode::CAST_NONE, 320);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(og, g, 320);
    AscendC::DataCopy(og[320], hf, 320);
}
"""


def test_ascend310p_gather_by_byte_offsets_matches_numpy_on_both_backends(tree):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(320).astype(np.float32)
    lanes = np.concatenate([rng.integers(0, 320, 300), np.zeros(20, int), rng.integers(0, 320, 300),
                            np.zeros(20, int)])
    offsets = np.concatenate([lanes[:320] * 4, lanes[320:] * 2]).astype(np.uint32)
    outs = {}
    for backend in ("builtin", "devkit"):
        out = np.full(640, 77, np.float32)
        load(GATHER_310P, "ascend310p", backend=backend, filename="gather310p.cpp").launch("gather", 1, x, offsets, out)
        outs[backend] = out
    assert outs["devkit"].tobytes() == outs["builtin"].tobytes()
    want = np.zeros(640, np.float32)
    want[:300] = x[lanes[:300]]
    want[320:620] = x.astype(np.float16)[lanes[320:620]].astype(np.float32)
    np.testing.assert_array_equal(outs["devkit"], want)


def test_each_launch_has_a_zeroed_system_workspace_apart_from_the_kernels_workspace(built):
    module = built("ws_probe", WS_PROBE)
    for _ in range(2):                  # the first launch dirtied its system workspace: a new one is zeroed
        out = np.full(64, 0x11, np.uint8)
        workspace = np.zeros(4096, np.uint8)
        module.launch("ws_probe", 1, out, workspace)
        assert (workspace == 0xAB).all()
        assert not out.any(), out       # both ends of the system workspace, untouched by the kernel's writes


def test_a_hang_names_the_line_where_the_cores_wait(built):
    with pytest.raises(HangError) as err:
        built("faults", FAULTS).launch("even_cores_sync_all", 4, np.zeros(8, np.float32))
    assert f"faults.cpp:{_line(FAULTS, 'SyncAll();')}" in str(err.value), str(err.value)


def test_a_missing_intrinsic_is_a_compile_error_naming_it_and_its_caller(tree, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))     # where the relink that names the caller runs
    with pytest.raises(CompileError) as err:
        load(MISSING, "ascend910b", backend="devkit", filename="mulcast.cpp")
    text = str(err.value)
    assert "intrinsic vmulconv_f162s8" in text and "needed by" in text and "MulCast" in text, text
    assert list(tmp_path.iterdir()) == [], "the relink's temporary folder was left behind"


def test_ascend950_register_kernel_is_exact_and_its_ub_faults_name_the_line(tree):
    rng = np.random.default_rng(3)
    x = rng.integers(-8, 8, 512).astype(np.float32)
    y = rng.integers(-8, 8, 512).astype(np.float32)
    out, pairs, sums = np.zeros(512, np.float32), np.zeros(1024, np.float32), np.zeros(512, np.float32)
    module = load(REG_3510, "ascend950", backend="devkit", filename="reg3510.cpp")
    module.launch("reg_mix", 2, x, y, out, pairs, sums)
    for core in range(2):
        a, b = x[core * 256:][:256], y[core * 256:][:256]
        want = np.where(a > b, a + b, a * b)
        got = out[core * 256:][:256]
        np.testing.assert_array_equal(got[:200], want[:200])
        np.testing.assert_array_equal(got[200:], -1.0)       # masked lanes of the tail are not stored
        np.testing.assert_array_equal(pairs[core * 512:][:512], np.stack([a, b], 1).reshape(-1))
        sums_core = sums[core * 256:][:256].reshape(4, 64)
        for i, n in enumerate((64, 64, 64, 8)):
            assert sums_core[i, 0] == a[i * 64:][:n].sum() and not sums_core[i, 1:].any(), (i, sums_core[i])
    with pytest.raises(KernelMemoryError) as err:
        module.launch("reg_past_ub", 1, x)
    text = str(err.value)
    assert "vlds" in text and "outside" in text and "reg3510.cpp:" in text, text


def test_a_dav3510_matmul_with_a_ub_input_is_refused_at_its_line():
    # The library's CPU build runs dav_3510's Matmul in its workspace mode, which reads a UB input back with
    # the matrix's row stride (matmul_vecout computed wrong numbers): refused before any build.
    from ascgen import products
    from ascgen.runtime.backends.devkit import toolchain as devkit
    text = ("#include \"lib/matmul_intf.h\"\n\n"
            "AscendC::Matmul<\n"
            "    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,\n"
            "    AscendC::MatmulType<AscendC::TPosition::VECOUT, CubeFormat::ND, half>,\n"
            "    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>> mm;\n")
    with pytest.raises(CompileError) as err:
        devkit.check_matmul_inputs(text, "k.asc", products.get("ascend950"))
    assert "k.asc:3:" in str(err.value) and "B input is in TPosition::VECOUT" in str(err.value)
    devkit.check_matmul_inputs(text, "k.asc", products.get("ascend910b"))          # dav_c220: runs
    devkit.check_matmul_inputs(text.replace("VECOUT", "GM"), "k.asc", products.get("ascend950"))


# ---- the Backend object follows the module (issue 19 / 25 defects) -------------------------------------

# A LocalMemAllocator (its bookkeeping must not outlive a launch) and a backend marker.
ALLOC = """
#include "kernel_operator.h"
#if defined(ASCGEN_DEVKIT)
#define BACKEND_MARK 1
#else
#define BACKEND_MARK 2
#endif
extern "C" __global__ __aicore__ void alloc(GM_ADDR out) {
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<int32_t> t = ub.Alloc<AscendC::TPosition::VECCALC, int32_t>(8);
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t*)out, 8);
    AscendC::Duplicate(t, int32_t(BACKEND_MARK), 8);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(o, t, 8);
}
"""


def test_a_local_mem_allocator_works_in_every_launch_of_a_module(built):
    mod = built("alloc", ALLOC)
    for _ in range(2):      # the second launch reuses copy 0, whose library singleton saw the first
        out = np.zeros(8, np.int32)
        mod.launch("alloc", 1, out)
        np.testing.assert_array_equal(out, 1)


def test_an_isolated_launch_runs_on_the_modules_backend(built):
    out = np.zeros(8, np.int32)
    built("alloc", ALLOC).launch("alloc", 1, out, isolated=True)
    np.testing.assert_array_equal(out, 1)     # 2: the worker built the kernel for the builtin backend


def test_block_dim_past_the_module_copies_is_refused_before_any_core_runs(built):
    mod = built("add", ADD)
    n = 257 * 256
    x, y, z = (np.zeros(n, np.float32) for _ in range(3))
    copies = sorted(mod.so_path.parent.glob(mod.so_path.name + ".core*"))
    with pytest.raises(SpecError, match=r"257 AIV cores.*256 per core type.*block_dim <= 256"):
        mod.launch("add", 257, x, y, z, np.uint32(n))
    assert sorted(mod.so_path.parent.glob(mod.so_path.name + ".core*")) == copies   # no copy written


def test_the_same_kernel_in_two_folders_builds_once_and_reports_each_folders_line(tree, tmp_path):
    """A relocatable devkit module: one build for both copies, and the library-call reports (code sites,
    read from the per-core module copies' line tables) name each copy's own file."""
    copies = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        copies.append(tmp_path / name / "faults.cpp")
        copies[-1].write_text(FAULTS)
    mods = [load(c, "ascend910b", backend="devkit") for c in copies]
    assert mods[0].so_path == mods[1].so_path
    for mod, copy in zip(mods, copies):
        with pytest.raises(KernelMemoryError) as err:
            mod.launch("ub_overflow", 1, np.zeros(64, np.float32))
        assert err.value.site.file == str(copy) and err.value.site.line == _line(FAULTS, "Add(a, a, a"), err.value.site


def test_a_program_whose_extra_source_registers_the_matmul_object_gets_the_kfc_allowance(tmp_path):
    """A kernel UT program's kernel is one of its extra sources: ops-nn single_layer_lstm_grad's Matmul kernel
    left the model's allowance for the KFC server's notifications to both AIVs unset (only the main source was
    read), and three cases ended in a false `unbalanced cross-core flags` fault."""
    from types import SimpleNamespace
    from ascgen.runtime.backends.devkit.backend import uses_matmul_kfc
    (tmp_path / "op_kernel").mkdir()
    main, kernel, header = tmp_path / "main.cpp", tmp_path / "op_kernel" / "kernel.cpp", tmp_path / "op_kernel" / "mm.h"
    main.write_text("int main() { return 0; }\n")
    header.write_text("void f() { REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm); }\n")
    kernel.write_text('#include "mm.h"\n')
    module = SimpleNamespace(text=main.read_text(), source=str(main), include_dirs=[], extra_sources=[kernel])
    assert not uses_matmul_kfc(SimpleNamespace(**{**vars(module), "extra_sources": []}))
    assert uses_matmul_kfc(module)
