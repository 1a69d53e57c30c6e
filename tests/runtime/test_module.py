"""load() / Module.launch / Module.task on hand-written kernels, checked against numpy."""
import os
import subprocess
import sys
import textwrap

import ml_dtypes
import numpy as np
import pytest

from ascgen.errors import CompileError, SpecError
from ascgen.runtime import load
from tests.paths import REPO, RUNTIME_KERNELS

KERNELS = RUNTIME_KERNELS
REPO = REPO


@pytest.fixture(scope="module")
def add_relu():
    return load(KERNELS / "add_relu.cpp", product="ascend910_93")


@pytest.fixture(scope="module")
def scalars():
    return load(KERNELS / "scalars.cpp", product="ascend910_93", instances=["fill<7>"])


@pytest.mark.parametrize("n, blocks", [(4096 * 8, 8), (4096 * 3 + 17, 8), (1, 4), (0, 2), (100_003, 24)])
def test_add_relu_matches_numpy_with_tails(add_relu, n, blocks):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    z = np.full(n, np.nan, dtype=np.float32)
    add_relu.launch("add_relu", blocks, x, y, z, n)
    np.testing.assert_array_equal(z, np.maximum(x + y, 0))


def test_module_reports_its_kernels_and_inferred_type(add_relu, scalars):
    assert add_relu.kernels == ("add_relu",)
    assert add_relu.kernel_type("add_relu") == "aiv"
    assert set(scalars.kernels) == {"echo", "fill", "geometry", "keyed"}
    assert scalars.kernel_type("fill<7>") == "aiv"          # __vector__


def test_every_scalar_type_reaches_the_kernel(scalars):
    out = np.zeros(8, dtype=np.float64)
    scalars.launch("echo", 1, out, 255, -32768, 4_000_000_000, -(2 ** 40), 1.25, 0.5, 3.0, True)
    np.testing.assert_array_equal(out, [255, -32768, 4e9, -(2 ** 40), 1.25, 0.5, 3.0, 1.0])


def test_scalar_out_of_range_is_a_spec_error_before_running(scalars):
    out = np.zeros(8, dtype=np.float64)
    with pytest.raises(SpecError, match=r'parameter "a" \(uint8_t, uint8\) takes values in \[0, 255\]; got 300'):
        scalars.launch("echo", 1, out, 300, 0, 0, 0, 0.0, 0.0, 0.0, False)


def test_typed_pointer_parameter_rejects_another_dtype(scalars):
    with pytest.raises(SpecError, match=r'"out" is __gm__ double\* \(float64 elements\); got a float32 array'):
        scalars.launch("echo", 1, np.zeros(8, np.float32), 1, 0, 0, 0, 0.0, 0.0, 0.0, False)


def test_template_kernel_instances(scalars):
    out = np.zeros(4, dtype=np.int32)
    scalars.launch("fill<7>", 4, out)
    np.testing.assert_array_equal(out, [700, 701, 702, 703])
    out = np.zeros(2, dtype=np.int32)
    scalars.launch("fill<3>", 2, out)                       # compiled on demand
    np.testing.assert_array_equal(out, [300, 301])
    with pytest.raises(SpecError, match=r'"fill" .* is a template <uint32_t N>; name an instance'):
        scalars.launch("fill", 2, out)


def test_mix_1_2_geometry_on_a_separated_product(scalars):
    out = np.full(2000 * 4, -1, dtype=np.int32)
    scalars.launch("geometry", 3, out, kernel_type="mix_1_2")
    rows = out.reshape(-1, 4)
    aiv = rows[:6]
    aic = rows[1000:1003]
    np.testing.assert_array_equal(aiv[:, 0], np.arange(6))             # GetBlockIdx in [0, 2N) on AIV
    np.testing.assert_array_equal(aiv[:, 1], [3] * 6)                  # GetBlockNum is N on both
    np.testing.assert_array_equal(aiv[:, 2], [0, 1] * 3)               # GetSubBlockIdx
    np.testing.assert_array_equal(aic[:, :2], [[0, 3], [1, 3], [2, 3]])
    np.testing.assert_array_equal(aic[:, 3], [1, 1, 1])
    assert (rows[6:1000] == -1).all() and (rows[1003:] == -1).all()


def test_unknown_kernel_and_wrong_argument_count(add_relu):
    with pytest.raises(SpecError, match=r'has no kernel "add_rleu" \(kernels: add_relu\)'):
        add_relu.launch("add_rleu", 1)
    with pytest.raises(SpecError, match=r"add_relu takes 4 argument\(s\) after block_dim .* got 2"):
        add_relu.launch("add_relu", 1, np.zeros(4, np.float32), np.zeros(4, np.float32))
    with pytest.raises(SpecError, match="block_dim must be a positive integer"):
        add_relu.launch("add_relu", 0, *[np.zeros(4, np.float32)] * 3, 4)


def test_task_carries_what_the_superkernel_needs(add_relu):
    x = np.ones(64, np.float32)
    bound = add_relu.task("add_relu", 2, x, x, x, 64)
    assert bound.task.name == "add_relu" and bound.task.block_dim == 2 and bound.task.kernel_type == "aiv"
    assert not bound.task.uses_wait and not bound.task.uses_set
    assert [b.name for b in bound.buffers] == ["x", "y", "z"]
    assert bound.buffers[0].address == x.ctypes.data and bound.buffers[0].nbytes == 256


def test_source_text_task_sync_usage_and_filename():
    src = textwrap.dedent("""\
        #include "kernel_operator.h"
        extern "C" __global__ __aicore__ void k(GM_ADDR x) {
            AscendC::WaitPreTaskEnd();
            AscendC::GlobalTensor<int32_t> g;
            g.SetGlobalBuffer((__gm__ int32_t*)x);
            g.SetValue(AscendC::GetBlockIdx(), 5);
            AscendC::SetNextTaskStart();
        }
        """)
    mod = load(src, product="ascend950", filename="synced.cpp")
    bound = mod.task("k", 2, np.zeros(2, np.int32))
    assert bound.task.uses_wait and bound.task.uses_set and bound.task.source == "synced.cpp"
    out = np.zeros(2, np.int32)
    mod.launch("k", 2, out)                                  # plain launch: the calls are no-ops
    np.testing.assert_array_equal(out, [5, 5])


def test_compile_error_names_the_users_file_and_line(tmp_path):
    bad = tmp_path / "broken.cpp"
    bad.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) {\n'
                   "    AscendC::NoSuchApi(x);\n}\n")
    with pytest.raises(CompileError, match=r"broken.cpp:3:.*NoSuchApi"):
        load(bad, product="ascend910b")


def test_bfloat16_arrays_bind(tmp_path):
    src = ('#include "kernel_operator.h"\n'
           'extern "C" __global__ __aicore__ void twice(__gm__ bfloat16_t* x, uint32_t n) {\n'
           "    AscendC::GlobalTensor<bfloat16_t> g; g.SetGlobalBuffer(x, n);\n"
           "    for (uint32_t i = 0; i < n; ++i) g.SetValue(i, (bfloat16_t)((float)g.GetValue(i) * 2.0f));\n}\n")
    mod = load(src, product="ascend910b", filename="twice.cpp")
    x = np.array([1.5, -2.0, 3.0], dtype=ml_dtypes.bfloat16)
    mod.launch("twice", 1, x, 3)
    np.testing.assert_array_equal(x.astype(np.float32), [3.0, -4.0, 6.0])


def test_several_processes_loading_the_same_new_source_at_once(tmp_path):
    """The compile cache under concurrent builders: every process gets a working module, no corrupt entry."""
    token = os.urandom(8).hex()
    src = tmp_path / "race_build.cpp"
    src.write_text(f"// {token}\n" + (KERNELS / "add_relu.cpp").read_text())
    script = textwrap.dedent(f"""
        import numpy as np
        from ascgen.runtime import load
        m = load({str(src)!r}, product="ascend910b")
        x = np.arange(10000, dtype=np.float32) - 5000; z = np.zeros_like(x)
        m.launch("add_relu", 4, x, x, z, x.size)
        print(float(z.sum()))
    """)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for _ in range(4)]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err[-3000:]
    expected = float(np.maximum(2 * (np.arange(10000, dtype=np.float32) - 5000), 0).sum())
    assert [float(o.strip()) for o, _ in outs] == [expected] * 4


def test_tiling_key_selects_the_branch(scalars):
    out = np.zeros(1, np.int32)
    scalars.launch("keyed", 1, out, tiling_key=2)
    assert out[0] == 22
    scalars.launch("keyed", 1, out, tiling_key=1)
    assert out[0] == 11
    with pytest.raises(SpecError, match="tiling_key must be an integer"):
        scalars.launch("keyed", 1, out, tiling_key=-1)


def test_a_kernel_file_with_a_host_launcher_loads():
    """`ascgen emit --host` style: the kernel file also defines a host function using <<<>>>."""
    src = textwrap.dedent("""\
        #include "kernel_operator.h"
        extern "C" __global__ __aicore__ void inc(GM_ADDR x) {
            AscendC::GlobalTensor<int32_t> g;
            g.SetGlobalBuffer((__gm__ int32_t*)x);
            g.SetValue(AscendC::GetBlockIdx(), g.GetValue(AscendC::GetBlockIdx()) + 1);
        }
        void inc_do(uint32_t blockDim, void* stream, uint8_t* x) { inc<<<blockDim, nullptr, stream>>>(x); }
        """)
    mod = load(src, product="ascend910b", filename="inc_host.cpp")
    x = np.arange(4, dtype=np.int32)
    mod.launch("inc", 4, x)
    np.testing.assert_array_equal(x, [1, 2, 3, 4])


def test_cce_aicore_and_npu_arch_are_defined_per_product():
    src = textwrap.dedent("""\
        #include "kernel_operator.h"
        extern "C" __global__ __aicore__ void arch(GM_ADDR x) {
            AscendC::GlobalTensor<int32_t> g;
            g.SetGlobalBuffer((__gm__ int32_t*)x, 2);
            g.SetValue(0, __NPU_ARCH__);
        #ifdef __CCE_AICORE__
            g.SetValue(1, __CCE_AICORE__);
        #endif
        }
        """)
    for product, arch in (("ascend910b", 2201), ("ascend950", 3510)):
        from ascgen import products
        out = np.zeros(2, np.int32)
        load(src, product=product, filename="arch.cpp").launch("arch", 1, out)
        assert out[0] == arch
        assert out[1] == (products.get(product).cce_aicore or 0)


def test_forced_includes_come_before_the_source_and_see_the_defines(tmp_path):
    """load(forced_includes=...) is g++ -include: the header is read before the source (which uses its
    names without including it), and it sees the -D macros (g++ reads every -D before any -include)."""
    header = tmp_path / "forced.h"
    header.write_text("#pragma once\n#ifdef STEP\n#define FORCED_STEP STEP\n#else\n#define FORCED_STEP 100\n#endif\n")
    src = textwrap.dedent("""\
        #include "kernel_operator.h"
        extern "C" __global__ __aicore__ void forced_step(GM_ADDR x) {
            AscendC::GlobalTensor<int32_t> g;
            g.SetGlobalBuffer((__gm__ int32_t*)x, 1);
            g.SetValue(0, FORCED_STEP);
        }
        """)
    out = np.zeros(1, np.int32)
    load(src, "ascend910b", filename="step.cpp", defines={"STEP": "3"}, forced_includes=[header]).launch("forced_step", 1, out)
    assert out[0] == 3
    with pytest.raises(SpecError, match=r"forced include .*absent\.h: no such file"):
        load(src, "ascend910b", filename="step.cpp", forced_includes=[tmp_path / "absent.h"])


def test_repeated_launches_leave_no_thread_behind(add_relu):
    x = np.ones(4096, np.float32)
    z = np.zeros_like(x)
    add_relu.launch("add_relu", 8, x, x, z, x.size)
    before = len(os.listdir("/proc/self/task"))
    for _ in range(100):
        add_relu.launch("add_relu", 8, x, x, z, x.size)
    assert len(os.listdir("/proc/self/task")) <= before   # none left behind


def test_kernels_inside_namespaces():
    src = textwrap.dedent("""\
        #include "kernel_operator.h"
        namespace ops { namespace v1 {
        __global__ __aicore__ void seven(GM_ADDR x) {
            AscendC::GlobalTensor<int32_t> g;
            g.SetGlobalBuffer((__gm__ int32_t*)x, 1);
            g.SetValue(0, 7);
        }
        } }
        namespace {
        template <int N> __global__ __vector__ void nth(GM_ADDR x) {
            AscendC::GlobalTensor<int32_t> g;
            g.SetGlobalBuffer((__gm__ int32_t*)x, 1);
            g.SetValue(0, N);
        }
        }
        """)
    mod = load(src, product="ascend910b", filename="spaced.cpp")
    out = np.zeros(1, np.int32)
    mod.launch("seven", 1, out)
    assert out[0] == 7
    mod.launch("nth<9>", 1, out)
    assert out[0] == 9
