"""Compile-time behaviour of the emulated library: every header stands alone, a kernel using the broad API
compiles warning-free under -Wall -Wextra, and unsupported uses fail at compile time with a message that
names the API (never silently accepted)."""
from __future__ import annotations


import pytest

from tests.library import harness

pytestmark = pytest.mark.skipif(not harness.have_compiler(), reason="no C++ compiler on PATH")

HEADERS = sorted(p.relative_to(harness.INCLUDE).as_posix() for p in (harness.INCLUDE / "ascendc").glob("*.h"))


@pytest.mark.parametrize("header", HEADERS + ["kernel_operator.h", "tikicpulib.h"])
def test_every_header_compiles_on_its_own(header):
    res = harness.syntax_check(f'#include "{header}"\n')
    assert res.returncode == 0, res.stderr


BROAD = r'''
#include "kernel_operator.h"
using namespace AscendC;
struct Tiling { uint32_t n; };
extern "C" __global__ __aicore__ void broad(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(Tiling);
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qin;
    TQue<TPosition::VECOUT, 2> qout;
    TBuf<TPosition::VECCALC> tmp;
    pipe.InitBuffer(qin, 2, 1024);
    pipe.InitBuffer(qout, 2, 1024);
    pipe.InitBuffer(tmp, 4096);
    GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer((__gm__ half*)x + GetBlockIdx() * t.n, t.n);
    yg.SetGlobalBuffer((__gm__ half*)y + GetBlockIdx() * t.n, t.n);
    WaitPreTaskEnd();
    LocalTensor<half> a = qin.AllocTensor<half>();
    DataCopyPad(a, xg, DataCopyExtParams{1, 100, 0, 0, 0}, DataCopyPadExtParams<half>{false, 0, 0, 0});
    qin.EnQue(a);
    a = qin.DeQue<half>();
    LocalTensor<half> b = qout.AllocTensor<half>();
    LocalTensor<float> f = tmp.Get<float>();
    Cast(f, a, RoundMode::CAST_NONE, 256);
    Exp(f, f, 256);
    Muls(f, f, 0.5f, 256);
    Cast(b, f, RoundMode::CAST_RINT, 256);
    Adds(b, b, (half)1.0, 256);
    LeakyRelu(b, b, (half)0.1, 256);
    Add(b, b, a, 128, 2, {1, 1, 1, 8, 8, 8});
    LocalTensor<uint8_t> m = tmp.Get<uint8_t>();
    CompareScalar(m, a, (half)0, CMPMODE::GT, 256);
    Select(b, m, b, (half)0, SELMODE::VSEL_TENSOR_SCALAR_MODE, 256);
    ReduceMax(b, b, a, 256, true);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    qout.EnQue(b);
    qin.FreeTensor(a);
    b = qout.DeQue<half>();
    DataCopyPad(yg, b, DataCopyExtParams{1, 100, 0, 0, 0});
    qout.FreeTensor(b);
    SetNextTaskStart<PIPE_MTE3, PIPE_FIX>();
    if ASCEND_IS_AIV { AscendC::printf("block %ld of %ld\n", block_idx, GetBlockNum()); }
    PipeBarrier<PIPE_ALL>();
}
'''


def test_broad_kernel_compiles_without_warnings():
    res = harness.syntax_check(BROAD, flags=("-Wextra", "-Werror"))
    assert res.returncode == 0, res.stderr


def _snippet(body: str) -> str:
    return '#include "kernel_operator.h"\nusing namespace AscendC;\nvoid k(GM_ADDR p) {\n' + body + "\n}\n"


def test_a_tiling_struct_registered_at_file_scope_or_in_the_kernel_is_the_one_get_tiling_data_declares():
    # Operator kernels register at file scope too; the registration was an alias that clashed there.
    source = ('#include "kernel_operator.h"\nstruct Outer { int n; }; struct Inner { float f; };\n'
              'REGISTER_TILING_DEFAULT(Outer);\n'
              'void a(GM_ADDR p) { GET_TILING_DATA(t, p); static_assert(sizeof(t) == sizeof(Outer), "outer"); }\n'
              'void b(GM_ADDR p) { REGISTER_TILING_DEFAULT(Inner); GET_TILING_DATA(t, p);\n'
              '                    static_assert(std::is_same<decltype(t), Inner>::value, "inner"); }\n')
    res = harness.syntax_check(source)
    assert res.returncode == 0, res.stderr[-3000:]


@pytest.mark.parametrize("body,message", [
    ("LocalTensor<half> a; LocalTensor<int4b_t> b; Cast(a, b, RoundMode::CAST_CEIL, 64);",
     "Cast from int4b_t is not emulated"),
    ("struct S { int n; }; GET_TILING_DATA(t, p);",
     "GET_TILING_DATA needs REGISTER_TILING_DEFAULT(YourTilingStruct) before it"),
    ("SetNextTaskStart<PIPE_M, PIPE_FIX>();", "AIV_PIPE must be PIPE_MTE2, PIPE_MTE3, PIPE_S or PIPE_V"),
    ("SetNextTaskStart<PIPE_MTE3, PIPE_V>();", "AIC_PIPE must be PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX or PIPE_M"),
    ("LocalTensor<float> c, a, b; Mmad(c, a, b, MmadParams{});", "Mmad is emulated for half/bfloat16 inputs"),
    ("LocalTensor<float> a; Exp(a, a, 8); LocalTensor<int32_t> i; Exp(i, i, 8);",
     "this vector op takes float/half/bfloat16 tensors only"),
    ("LocalTensor<float> a; And(a, a, a, 8);", "this vector op takes integer tensors only"),
    ("LocalTensor<uint8_t> a; Brcb(a, a, 1, {1, 8});", "Brcb: 16- or 32-bit elements"),
    ("LocalTensor<float> a; Sort32(a, a, a, 1);", "Sort32"),
    ("LocalMemAllocator<Hardware::L1> l1;", "LocalMemAllocator supports Hardware::UB only"),
])
def test_unsupported_use_fails_at_compile_time_naming_it(body, message):
    res = harness.syntax_check(_snippet(body))
    assert res.returncode != 0 and message in res.stderr, res.stderr[-3000:]
