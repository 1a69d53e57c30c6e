"""The operator repositories' kernel-side tiling conventions on the devkit backend (docs/op-conventions.md):
the GET_TILING_DATA* family, REGISTER_TILING_DEFAULT, TILING_KEY_IS / TILING_KEY_LIST dispatch with the
launch's tiling key (Python `tiling_key=` and a host program's ICPU_SET_TILING_KEY), each on a small kernel
checked against numpy."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.commands import run as run_cmd
from ascgen.errors import KernelMemoryError
from ascgen.runtime.loader import load
from tests import devkit_tree

# One kernel per macro family. The tiling struct holds a scale and a bias; TILING_KEY_IS picks the formula.
KERNEL = r"""
#include "kernel_operator.h"
#include "op_header.h"
using namespace AscendC;

struct OpTiling {
    uint32_t n;
    float scale;
    float bias;
    uint32_t pad;
};

// out = x * scale (key 1), x + bias (key 2), x * scale + bias (keys 3 or 4: TILING_KEY_LIST), 2x (key 5)
__aicore__ inline void Compute(GM_ADDR x, GM_ADDR out, float scale, float bias, uint32_t n) {
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    og.SetGlobalBuffer((__gm__ float*)out, n);
    for (uint32_t i = 0; i < n; i++) {
        float v = xg.GetValue(i);
        if (TILING_KEY_IS(1)) {
            v = v * scale;
        } else if (TILING_KEY_IS(2)) {
            v = v + bias;
        } else if (TILING_KEY_LIST(3, 4)) {
            v = v * scale + bias;
        } else if (TILING_KEY_IS(5)) {
            v = Twice(v);
        } else {
            v = -1.0f;
        }
        og.SetValue(i, v);
    }
}

// A registration at file scope, as an op's shared header writes it (ops-nn rms_norm_quant_v2_apt.h, which
// rms_norm_quant_v3's kernel includes): a kernel without its own registration takes it, by_default's
// block-scope registration hides it. Its layout swaps scale and bias, so the test sees which one was read.
struct FileTiling {
    uint32_t n;
    float bias;
    float scale;
    uint32_t pad;
};
REGISTER_TILING_DEFAULT(FileTiling);

extern "C" __global__ __aicore__ void by_file_default(GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    Compute(x, out, t.scale, t.bias, t.n);
}

extern "C" __global__ __aicore__ void by_default(GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {
    REGISTER_TILING_DEFAULT(OpTiling);
    GET_TILING_DATA(t, tiling);
    Compute(x, out, t.scale, t.bias, t.n);
}

extern "C" __global__ __aicore__ void with_struct(GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(OpTiling, t, tiling);
    Compute(x, out, t.scale, t.bias, t.n);
}

extern "C" __global__ __aicore__ void by_pointer(GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_PTR_WITH_STRUCT(OpTiling, t, tiling);
    Compute(x, out, t->scale, t->bias, t->n);
}

// GM reached only through a pointer table (as a TensorList's descriptor holds its tensors' addresses):
// out = *table[0] + *table[1], 64 floats.
extern "C" __global__ __aicore__ void by_table(GM_ADDR table, GM_ADDR out) {
    GlobalTensor<uint64_t> t;
    t.SetGlobalBuffer((__gm__ uint64_t*)table, 2);
    GlobalTensor<float> a, b, o;
    a.SetGlobalBuffer((__gm__ float*)t.GetValue(0), 64);
    b.SetGlobalBuffer((__gm__ float*)t.GetValue(1), 64);
    o.SetGlobalBuffer((__gm__ float*)out, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 64 * sizeof(float));
    LocalTensor<float> x = buf.Get<float>();
    LocalTensor<float> y = x[64];
    LocalTensor<float> z = x[128];
    DataCopy(x, a, 64);
    DataCopy(y, b, 64);
    PipeBarrier<PIPE_ALL>();
    Add(z, x, y, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(o, z, 64);
}

// A template kernel as the ASCENDC_TPL_* ops write them; the UTs launch an instance explicitly.
template <uint64_t SCALE>
__global__ __aicore__ void tpl_scale(GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(OpTiling, t, tiling);
    Compute(x, out, float(SCALE), t.bias, t.n);
}

extern "C" __global__ __aicore__ void by_member(GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_MEMBER(OpTiling, scale, scale, tiling);
    GET_TILING_DATA_MEMBER(OpTiling, bias, bias, tiling);
    GET_TILING_DATA_MEMBER_ADDR(OpTiling, n, n, tiling);
    Compute(x, out, scale, bias, *n);
}
"""

N = 40


def _tiling(n=N, scale=3.0, bias=0.5) -> np.ndarray:
    t = np.zeros(16, np.uint8)
    t[0:4] = np.frombuffer(np.uint32(n).tobytes(), np.uint8)
    t[4:8] = np.frombuffer(np.float32(scale).tobytes(), np.uint8)
    t[8:12] = np.frombuffer(np.float32(bias).tobytes(), np.uint8)
    return t


# The op's own header: a GBK comment (not UTF-8), the library's template-argument header by its installed
# name, a library header by its installed impl/<arch> name, and the ASCENDC_TPL declarations.
OP_HEADER = """#pragma once
// 模板参数
#include "ascendc/host_api/tiling/template_argument.h"
#include "impl/dav_c220/kernel_operator_reg_others_impl.h"
ASCENDC_TPL_ARGS_DECL(OpConventions, ASCENDC_TPL_UINT_DECL(SCALE, 2, ASCENDC_TPL_UI_LIST, 1, 3));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(SCALE, ASCENDC_TPL_UI_LIST, 1, 3)));
// the device compiler's spellings of the library's types and of an inline function
static_assert(std::is_same<__bf16, bfloat16_t>::value && std::is_same<float16_t, half>::value &&
              std::is_same<float32_t, float>::value, "bisheng types");
__aicore__ __forceinline__ float Twice(float v) { return v * 2.0f; }
"""


# A host program in the CPU-debug style of the operator repositories' kernel UTs, with every kind of callable
# their ICPU_RUN_KF is given (CANN's takes any callable by value) and securec's memset_s, which CANN's
# tikicpulib.h brings without an include.
PROGRAM = KERNEL + r"""
#include "tikicpulib.h"
#include <cstdio>
template <uint64_t S>
void RunCase(GM_ADDR x, GM_ADDR out, GM_ADDR t) {     // a parenthesised template instance, in a template
    ICPU_RUN_KF((tpl_scale<S>), 1, x, out, t);
}
struct KernelTest {
    template <uint64_t S>
    void RunKernelCase(GM_ADDR x, GM_ADDR out, GM_ADDR t) {   // a const lambda in a member template
        const auto kernel = [](GM_ADDR a, GM_ADDR b, GM_ADDR c) { ::tpl_scale<S>(a, b, c); };
        ICPU_RUN_KF(kernel, 1, x, out, t);
    }
};
static void Print(const char* what, const float* out, uint32_t n) {
    std::printf("%s:", what);
    for (uint32_t i = 0; i < n; i++) std::printf(" %g", out[i]);
    std::printf("\n");
}
int main() {
    const uint32_t n = 8;
    float* x = (float*)AscendC::GmAlloc(n * sizeof(float));
    float* out = (float*)AscendC::GmAlloc(n * sizeof(float));
    OpTiling* t = (OpTiling*)AscendC::GmAlloc(sizeof(OpTiling));
    for (uint32_t i = 0; i < n; i++) x[i] = float(i);
    t->n = n; t->scale = 2.0f; t->bias = 100.0f;
    // a template kernel of the ASCENDC_TPL convention, launched as its instance (as the UTs do)
    ICPU_SET_TILING_KEY(4);
    ICPU_RUN_KF(tpl_scale<3>, 1, (GM_ADDR)x, (GM_ADDR)out, (GM_ADDR)t);
    Print("tpl", out, n);
    std::printf("memset_s %d\n", memset_s(out, n * sizeof(float), 0, n * sizeof(float)));
    RunCase<2>((GM_ADDR)x, (GM_ADDR)out, (GM_ADDR)t);
    Print("paren", out, n);
    KernelTest().RunKernelCase<1>((GM_ADDR)x, (GM_ADDR)out, (GM_ADDR)t);
    Print("member", out, n);
    ICPU_RUN_KF([](GM_ADDR a, GM_ADDR b, GM_ADDR c) { tpl_scale<3>(a, b, c); }, 1, (GM_ADDR)x, (GM_ADDR)out, (GM_ADDR)t);
    Print("inline", out, n);
    // lambdas that capture, by value (the UTs' `[mode](GM_ADDR ...) { if (mode == ...) op<A>(...); ... }`) and
    // by reference, on two cores (each runs the closure in its own module copy)
    uint64_t mode = 2;
    auto by_value = [mode](GM_ADDR a, GM_ADDR b, GM_ADDR c) {
        if (mode == 2) tpl_scale<2>(a, b, c); else tpl_scale<1>(a, b, c);
    };
    ICPU_RUN_KF(by_value, 2, (GM_ADDR)x, (GM_ADDR)out, (GM_ADDR)t);
    Print("by value", out, n);
    ICPU_RUN_KF([&](GM_ADDR a, GM_ADDR b) { tpl_scale<1>(a, b, (GM_ADDR)t); }, 2, (GM_ADDR)x, (GM_ADDR)out);
    Print("by reference", out, n);
    auto pointer = &with_struct;
    ICPU_SET_TILING_KEY(1);
    ICPU_RUN_KF(pointer, 1, (GM_ADDR)x, (GM_ADDR)out, (GM_ADDR)t);
    Print("pointer", out, n);
    for (uint64_t key : {2, 1}) {
        ICPU_SET_TILING_KEY(key);
        ICPU_RUN_KF(with_struct, 2, (GM_ADDR)x, (GM_ADDR)out, (GM_ADDR)t);
        std::printf("key %llu:", (unsigned long long)key);
        for (uint32_t i = 0; i < n; i++) std::printf(" %g", out[i]);
        std::printf("\n");
    }
    AscendC::GmFree(x); AscendC::GmFree(out); AscendC::GmFree(t);
    return 0;
}
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    """One build for every test here: the kernels and a host program in the UTs' CPU-debug style (PROGRAM)."""
    devkit_tree.require()
    folder = tmp_path_factory.mktemp("op")
    (folder / "op_header.h").write_bytes(OP_HEADER.encode("gbk"))
    (folder / "op_conventions.cpp").write_text(PROGRAM)
    # A force-included tiling header that includes the op's kernel header, which says `using namespace
    # AscendC;` at file scope (ops-math accumulate_nv2_tiling.h): it comes before ascgen's own host headers.
    (folder / "forced_tiling.h").write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n')
    flags = run_cmd.program_flags([folder / "forced_tiling.h"], crash_report=True)
    return run_cmd.load_program(folder / "op_conventions.cpp", "ascend910b", backend="devkit", extra_flags=flags)


def test_a_file_scope_registration_gives_the_struct_a_kernel_without_its_own_reads(module):
    x = np.linspace(-2, 2, N, dtype=np.float32)
    out = np.zeros(N, np.float32)
    module.launch("by_file_default", 2, x, out, _tiling(scale=3.0, bias=0.5), tiling_key=1)
    np.testing.assert_array_equal(out, (x * np.float32(0.5)).astype(np.float32))   # FileTiling.scale: byte 8


@pytest.mark.parametrize("kernel", ["by_default", "with_struct", "by_pointer", "by_member"])
@pytest.mark.parametrize("key", [1, 2, 3, 4, 5, 9])
def test_each_tiling_macro_reads_the_struct_and_tiling_key_is_picks_the_branch(module, kernel, key):
    x = np.linspace(-2, 2, N, dtype=np.float32)
    out = np.zeros(N, np.float32)
    module.launch(kernel, 2, x, out, _tiling(), tiling_key=key)
    want = {1: x * 3.0, 2: x + 0.5, 3: x * 3.0 + 0.5, 4: x * 3.0 + 0.5, 5: x * 2.0}.get(key, np.full(N, -1.0, np.float32))
    np.testing.assert_array_equal(out, want.astype(np.float32))


def test_gm_reached_through_a_pointer_table_is_registered_with_extra_buffers(module):
    a = np.arange(64, dtype=np.float32)
    b = np.full(64, 0.25, np.float32)
    table = np.array([a.ctypes.data, b.ctypes.data], np.uint64)
    out = np.zeros(64, np.float32)
    with pytest.raises(KernelMemoryError):          # unregistered: the DMA's GM check refuses it
        module.launch("by_table", 1, table, out)
    module.launch("by_table", 1, table, out, extra_buffers={"a": a, "b": b})
    np.testing.assert_array_equal(out, a + b)


def test_extra_buffers_are_checked():
    from ascgen.errors import SpecError
    from ascgen.runtime.module import _extra_buffers
    x = np.zeros(8, np.float32)
    with pytest.raises(SpecError, match="C-contiguous"):
        _extra_buffers("k", [x[::2]], [])
    with pytest.raises(SpecError, match="overlaps out"):
        _extra_buffers("k", {"view": x[2:]}, [("out", x)])
    assert [n for n, _ in _extra_buffers("k", [np.ones(2), np.ones(3)], [])] == ["extra_buffers[0]", "extra_buffers[1]"]


def test_a_tiling_argument_too_short_for_the_struct_is_a_memory_error_at_the_macro(module):
    x = np.ones(N, np.float32)
    with pytest.raises(KernelMemoryError, match="op_conventions.cpp"):
        module.launch("with_struct", 1, x, np.zeros(N, np.float32), np.zeros(8, np.uint8), tiling_key=1)


def test_icpu_set_tiling_key_selects_the_branch_of_each_icpu_run_kf(module, capfd):
    assert run_cmd.run_program(module) == 0
    out = capfd.readouterr().out
    assert "tpl: 100 103 106 109 112 115 118 121" in out        # tpl_scale<3>: x * 3 + bias
    assert "memset_s 0" in out
    assert "paren: 100 102 104 106 108 110 112 114" in out      # tpl_scale<2>
    assert "member: 100 101 102 103 104 105 106 107" in out     # tpl_scale<1>
    assert "inline: 100 103 106 109 112 115 118 121" in out
    assert "by value: 100 102 104 106 108 110 112 114" in out
    assert "by reference: 100 101 102 103 104 105 106 107" in out
    assert "pointer: 0 2 4 6 8 10 12 14" in out                 # with_struct, key 1: x * scale
    assert "key 2: 100 101 102 103 104 105 106 107" in out
    assert "key 1: 0 2 4 6 8 10 12 14" in out


# The source analysis reads what the build reads (no compile: preprocessing only).
ANALYSED = r"""
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
#include "op_header.h"
#include "impl/adv_api/detail/activation/swish/swish_common_impl.h"
#if defined(ASCENDC_CPU_DEBUG) && __NPU_ARCH__ == 2201
extern "C" __global__ __aicore__ void seen_by_the_build(GM_ADDR x) {}
#endif
"""


def test_the_source_analysis_uses_the_builds_folders_and_macros_and_reads_any_encoding(tmp_path):
    devkit_tree.require()
    from ascgen.runtime import analysis
    from ascgen.runtime.backends.devkit.backend import DevkitBackend
    (tmp_path / "op_header.h").write_bytes(OP_HEADER.encode("gbk"))
    src = tmp_path / "analysed.cpp"
    src.write_text(ANALYSED)
    backend = DevkitBackend()
    info = analysis.analyse_source(ANALYSED, str(src), [tmp_path, *backend.analysis_include_dirs()],
                                   backend.analysis_defines("ascend910b"))
    assert [k.name for k in info.kernels] == ["seen_by_the_build"]


VECTOR_ONLY = r"""
#include "kernel_operator.h"
#include "kernel_operator_intf.h"
extern "C" __global__ __aicore__ void scale(GM_ADDR x)
{
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    AscendC::LocalTensor<half> t = buf.Get<half>();
    AscendC::DataCopy(t, g, 128);
    AscendC::Muls(t, t, (half)2, 128);
    AscendC::DataCopy(g, t, 128);
}
"""


def test_a_library_header_the_stand_ins_do_not_cover_is_not_the_users_source(tmp_path):
    """ops-nn ascend_quant_v2 includes kernel_operator_intf.h, which reaches every API's declaration
    (WaitPreTaskEnd, SetNextTaskStart, Mmad...). Read as the kernel's own text, it made the vector kernel
    MIX 1:2 and a caller of the task-sync pair, so in a SuperKernel its task got no implicit calls (a
    sync-count error, or the process aborted). The library's folders are the backend's, not the user's."""
    devkit_tree.require()
    from ascgen.runtime import analysis
    from ascgen.runtime.backends.devkit.backend import DevkitBackend
    src = tmp_path / "scale.cpp"
    src.write_text(VECTOR_ONLY)
    backend = DevkitBackend()
    info = analysis.analyse_source(VECTOR_ONLY, str(src), [tmp_path, *backend.analysis_include_dirs()],
                                   backend.analysis_defines("ascend910b"), backend.library_dirs())
    assert [(k.name, k.kernel_type) for k in info.kernels] == [("scale", "aiv")]
    assert (info.uses_wait, info.uses_set) == (False, False)
    unfiltered = analysis.analyse_source(VECTOR_ONLY, str(src), [tmp_path, *backend.analysis_include_dirs()],
                                         backend.analysis_defines("ascend910b"))
    assert (unfiltered.uses_wait, unfiltered.uses_set) == (True, True)     # what the test guards against


def test_a_tiling_api_include_reached_through_other_folders_gets_the_host_library(tmp_path):
    """A kernel UT includes its op_host tiling header by a relative path; that header includes
    register/tilingdata_base.h, so the build needs the host tiling library (no compile here)."""
    from types import SimpleNamespace
    from ascgen.runtime.backends.devkit import host as devkit_host
    from ascgen.runtime.backends.devkit.backend import _host_texts
    (tmp_path / "op" / "op_host").mkdir(parents=True)
    (tmp_path / "op" / "tests").mkdir()
    (tmp_path / "op" / "op_host" / "x_tiling.h").write_text('#pragma once\n#include "x_tiling_def.h"\n')
    (tmp_path / "op" / "op_host" / "x_tiling_def.h").write_text('#include "register/tilingdata_base.h"\n')
    test = tmp_path / "op" / "tests" / "test_x.cpp"
    test.write_text('#include "tikicpulib.h"\n#include "../op_host/x_tiling.h"\nint main() { return 0; }\n')
    module = SimpleNamespace(text=test.read_text(), source=str(test), include_dirs=[])
    assert devkit_host.needs_host(_host_texts(module, []))
    module = SimpleNamespace(text='#include "tikicpulib.h"\nint main() { return 0; }\n', source=str(test),
                             include_dirs=[])
    assert not devkit_host.needs_host(_host_texts(module, []))
