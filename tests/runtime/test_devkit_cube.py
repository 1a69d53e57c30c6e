"""The devkit backend's cube model (runtime/devkit/include/ascgen_devkit/cube.h): the real library's cube
path (DataCopy ND -> NZ, LoadData, Mmad, Fixpipe) on ascgen's emulation of the CCE cube intrinsics.

* The cube matmul kernel of benchmarks/bench_cube.py on both backends: bit-identical outputs (both call
  ascgen/gemm.h in the same summation order), within the float-sum bound of a float64 reference.
* A Fixpipe writing past the end of its GM output: KernelMemoryError naming the intrinsic.
* An int4 matmul (cube_int4.h: load2d, the transposing load, mad_s4) and a 4:2 sparse one (cube_sparse.h:
  LoadDataWithSparse, MmadWithSparse) against numpy.
* A kernel that needs a cube intrinsic the model lacks (a GM -> L0A load): CompileError naming it and the
  library function that calls it.
* Cube-path asc-devkit examples run unchanged on `--backend devkit` and pass their own verify scripts.
* A MIX Matmul with a vector epilogue as the middle task of a SuperKernel with early start: clean, and
  with a planted SetNextTaskStart before the cube side's last Fixpipe, reported as a race on its output.

Each devkit compile costs seconds against the real headers, so the file keeps to a handful.
"""
from __future__ import annotations

import sys

import numpy as np
import pytest

from ascgen.errors import CompileError, KernelMemoryError
from ascgen.runtime import SuperKernel
from ascgen.runtime.loader import load
from tests import devkit_tree
from tests.library.test_devkit_examples import BASIC, Case, _run
from tests.paths import DEVKIT_CUBE, REPO

MATMUL = REPO / "benchmarks" / "kernels" / "matmul_cube.cpp"
MIX = DEVKIT_CUBE / "mix_matmul.cpp"
MATRIX = f"{BASIC}/03_matrix_compute"


@pytest.fixture(scope="module")
def tree():
    return devkit_tree.require()


@pytest.fixture(scope="module")
def matmul_devkit(tree):
    return load(MATMUL, "ascend910b", backend="devkit")


def _float_sum_bound(a, b):
    # k exact products summed in float32 in any order: within k * 2^-24 * sum |a_i b_i| of the exact value.
    return a.shape[1] * 2.0 ** -24 * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)))


def test_matmul_is_bit_identical_on_both_backends(matmul_devkit):
    m, n, k = 50, 72, 40                       # ragged against the 32 x 48 x 32 tiles in every dimension
    rng = np.random.default_rng(3)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    outs = {}
    for backend, mod in (("builtin", load(MATMUL, "ascend910b")), ("devkit", matmul_devkit)):
        c = np.full((m, n), np.nan, np.float32)
        mod.launch("matmul_cube", 4, a, b, c, m, n, k, 32, 48, 32)
        outs[backend] = c
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert (np.abs(outs["devkit"] - exact) <= _float_sum_bound(a, b)).all()
    assert np.array_equal(outs["devkit"], outs["builtin"])


def test_fixpipe_past_the_end_of_gm_is_a_memory_error_naming_the_intrinsic(matmul_devkit):
    m = n = k = 32
    a, b = np.ones((m, k), np.float16), np.ones((k, n), np.float16)
    c = np.zeros((m - 1, n), np.float32)       # one row short: the last Fixpipe row lands past the end
    with pytest.raises(KernelMemoryError) as exc:
        matmul_devkit.launch("matmul_cube", 1, a, b, c, m, n, k, 32, 32, 32)
    assert "copy_matrix_cc_to_gm" in str(exc.value)


# int4 (cube_int4.h): C = A x B for A (M x K) and B (K x N) row-major in GM, packed two per byte along
# the row. A: ND -> NZ, load2d per 16-row block into L0A (load_cbuf_to_ca_s4). B: ND -> NZ, then each
# 64 x 64 square transposed into four zN fractals of L0B (load_cbuf_to_cb_transpose_s4; two squares per call,
# dstGap 3 as the Matmul API passes for int4). Mmad: mad_s4.
MATMUL_S4 = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t M = 32, N = 128, K = 128;
extern "C" __global__ __cube__ void matmul_s4(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    GlobalTensor<int4b_t> ag, bg;
    GlobalTensor<int32_t> cg;
    ag.SetGlobalBuffer((__gm__ int4b_t*)a, M * K);
    bg.SetGlobalBuffer((__gm__ int4b_t*)b, K * N);
    cg.SetGlobalBuffer((__gm__ int32_t*)c, M * N);
    LocalTensor<int4b_t> a1(TPosition::A1, 0, M * K), b1(TPosition::B1, M * K / 2, K * N);
    LocalTensor<int4b_t> a2(TPosition::A2, 0, M * K), b2(TPosition::B2, 0, K * N);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, M * N);
    Nd2NzParams pa;                     // d values in bytes: the copy moves two int4 as one int8
    pa.ndNum = 1, pa.nValue = M, pa.dValue = K / 2, pa.srcDValue = K / 2, pa.dstNzC0Stride = M, pa.dstNzNStride = 1;
    DataCopy(a1, ag, pa);
    Nd2NzParams pb;
    pb.ndNum = 1, pb.nValue = K, pb.dValue = N / 2, pb.srcDValue = N / 2, pb.dstNzC0Stride = K, pb.dstNzNStride = 1;
    DataCopy(b1, bg, pb);
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LoadData2DParams la;
    la.repeatTimes = K / 64, la.srcStride = M / 16;
    for (uint32_t i = 0; i < M / 16; ++i) LoadData(a2[i * 16 * K], a1[i * 16 * 64], la);
    LoadData2dTransposeParams lb;
    lb.startIndex = 0, lb.repeatTimes = N / 64, lb.srcStride = K / 64, lb.dstGap = 3, lb.dstFracGap = 0;
    for (uint32_t j = 0; j < K / 64; ++j) LoadDataWithTranspose(b2[j * 64 * N], b1[j * 64 * 64], lb);
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    MmadParams mp;
    mp.m = M, mp.n = N, mp.k = K, mp.cmatrixInitVal = true;
    Mmad(c1, a2, b2, mp);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsV220 fp;
    fp.nSize = N, fp.mSize = M, fp.srcStride = M, fp.dstStride = N;
    Fixpipe(cg, c1, fp);
}
"""


def _pack_int4(x):
    """Element 2i in the low nibble of byte i (the library's and the examples' packing)."""
    x = x.astype(np.int8).reshape(-1)
    return ((x[0::2] & 0xF) | (x[1::2] << 4)).astype(np.int8)


def test_int4_matmul_matches_numpy(tree):
    rng = np.random.default_rng(4)
    m, n, k = 32, 128, 128
    a = rng.integers(-8, 8, (m, k), dtype=np.int8)
    b = rng.integers(-8, 8, (k, n), dtype=np.int8)
    c = np.full((m, n), -1, np.int32)
    load(MATMUL_S4, "ascend910b", filename="matmul_s4.cpp", backend="devkit").launch(
        "matmul_s4", 1, _pack_int4(a), _pack_int4(b), c)
    np.testing.assert_array_equal(c, a.astype(np.int32) @ b.astype(np.int32))


# 4:2 sparse (cube_sparse.h): B (N x K) keeps two values of every four k, stored densified (zN fractals of
# K/2 x N) with a 2-bit index per value (fractals of 16 n x 8 bytes). LoadDataWithSparse: SetIndexMatrix +
# load_cbuf_to_cb_sp; MmadWithSparse: mad_sp. GM holds A, dense B and the index already in fractal order.
MATMUL_SP = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t M = 32, N = 48, K = 64;
extern "C" __global__ __cube__ void matmul_sp(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c) {
    GlobalTensor<int8_t> ag, bg;
    GlobalTensor<uint8_t> ig;
    GlobalTensor<int32_t> cg;
    ag.SetGlobalBuffer((__gm__ int8_t*)a, M * K);
    bg.SetGlobalBuffer((__gm__ int8_t*)b, K / 2 * N);
    ig.SetGlobalBuffer((__gm__ uint8_t*)idx, K / 8 * N);
    cg.SetGlobalBuffer((__gm__ int32_t*)c, M * N);
    LocalTensor<int8_t> a1(TPosition::A1, 0, M * K), b1(TPosition::B1, M * K, K / 2 * N);
    LocalTensor<uint8_t> i1(TPosition::B1, M * K + K / 2 * N, K / 8 * N);
    LocalTensor<int8_t> a2(TPosition::A2, 0, M * K), b2(TPosition::B2, 0, K / 2 * N);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, M * N);
    DataCopy(a1, ag, {1, M * K / 32, 0, 0});
    DataCopy(b1, bg, {1, K / 2 * N / 32, 0, 0});
    DataCopy(i1, ig, {1, K / 8 * N / 32, 0, 0});
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LoadData2DParams la;
    la.repeatTimes = K / 32, la.srcStride = M / 16;
    for (uint32_t i = 0; i < M / 16; ++i) LoadData(a2[i * 16 * K], a1[i * 512], la);
    LoadData2DParams lb;
    lb.repeatTimes = K / 2 / 32 * (N / 16);
    LoadDataWithSparse(b2, b1, i1, lb);
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    MmadParams mp;
    mp.m = M, mp.n = N, mp.k = K, mp.cmatrixInitVal = true;
    MmadWithSparse(c1, a2, b2, mp);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsV220 fp;
    fp.nSize = N, fp.mSize = M, fp.srcStride = M, fp.dstStride = N;
    Fixpipe(cg, c1, fp);
}
"""


def _fractals(x, rows, cols):
    """A matrix as NZ / zN fractals of rows x cols, column blocks outermost (the examples' transpose(2, 0, 1, 3))."""
    r, c = x.shape
    return np.ascontiguousarray(x.reshape(r // rows, rows, c // cols, cols).transpose(2, 0, 1, 3))


def test_sparse_matmul_matches_numpy(tree):
    rng = np.random.default_rng(5)
    m, n, k = 32, 48, 64
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    # Per row of B and group of four k: two positions p0 < p1; entries p0 and p1 - 1 (0..2 each).
    pairs = np.array([(p0, p1) for p0 in range(4) for p1 in range(p0 + 1, 4)])
    chosen = pairs[rng.integers(0, len(pairs), (n, k // 4))]                  # n x groups x 2
    dense = rng.integers(-128, 128, (n, k // 2), dtype=np.int8)
    sparse = np.zeros((n, k), np.int32)
    rows, groups = np.indices((n, k // 4))
    sparse[rows, 4 * groups + chosen[..., 0]] = dense[:, 0::2]
    sparse[rows, 4 * groups + chosen[..., 1]] = dense[:, 1::2]
    entries = np.stack([chosen[..., 0], chosen[..., 1] - 1], -1).reshape(n, k // 2).astype(np.uint8)
    index = (entries[:, 0::4] | entries[:, 1::4] << 2 | entries[:, 2::4] << 4 | entries[:, 3::4] << 6).astype(np.uint8)
    c = np.full((m, n), -1, np.int32)
    load(MATMUL_SP, "ascend910b", filename="matmul_sp.cpp", backend="devkit").launch(
        "matmul_sp", 1, _fractals(a, 16, 32), _fractals(dense, 16, 32), _fractals(index, 16, 8), c)
    np.testing.assert_array_equal(c, a.astype(np.int32) @ sparse.T)


# LoadData from GM straight into L0A (load_gm_to_ca) is not emulated.
GM_TO_L0 = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void load_gm(GM_ADDR x) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x, 4096);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, 4096);
    AscendC::LoadData2DParams p;
    AscendC::LoadData(a2, g, p);
}
"""


def test_a_cube_intrinsic_the_model_lacks_is_a_compile_error_naming_it(tree):
    with pytest.raises(CompileError) as exc:
        load(GM_TO_L0, "ascend910b", filename="load_gm.cpp", backend="devkit")
    text = str(exc.value)
    assert "intrinsic load_gm_to_ca" in text            # GM -> L0A: not emulated
    assert "(needed by " in text             # the library function (or the kernel it was inlined into)


# ---- asc-devkit examples, unchanged, on the devkit backend ------------------------------------------------

EXAMPLES = [
    Case("mmad[2]", f"{MATRIX}/mmad", "mmad.asc", ("SCENARIO_NUM=2",), ("-scenarioNum=2",),
         ("-scenarioNum=2", "output/output.bin", "output/golden.bin")),          # bfloat16, C accumulated in L0C
    Case("mmad_gemv", f"{MATRIX}/mmad_gemv", "mmad_gemv.asc", ("DISABLE_GEMV=0",)),   # m == 1: GEMV mode
    Case("fixpipe_l0c2gm[4]", f"{MATRIX}/fixpipe_l0c2gm", "fixpipe_l0c2gm.asc", ("SCENARIO_NUM=4",),
         ("-scenarioNum=4",), ("output/output.bin", "output/golden.bin", "4")),   # float -> int8, scalar quant
    Case("mmad_unitflag", f"{MATRIX}/mmad_unitflag", "mmad_unitflag.asc", ("ENABLE_UNITFLAG=1",)),  # unit flag 2/3
]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in EXAMPLES])
def test_cube_example_runs_unchanged_on_devkit(case, tree, tmp_path):
    root = devkit_tree.extract(tree, case.folder, tmp_path)
    build = root / "build"
    for d in (build, build / "input", build / "output"):
        d.mkdir()
    gen = _run([sys.executable, "../scripts/gen_data.py", *case.gen_args], build)
    assert gen.returncode == 0, f"gen_data.py failed:\n{gen.stdout}\n{gen.stderr}"
    cmd = [sys.executable, "-m", "ascgen", "run", str(root / case.source), "--product", case.product, "--cwd", str(build),
           "--backend", "devkit", "--time-limit", "120"]
    for d in case.defines:
        cmd += ["-D", d]
    run = _run(cmd, build, timeout=600)
    assert run.returncode == 0, f"ascgen run exited {run.returncode}:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    verify = _run([sys.executable, "../scripts/verify_result.py", *case.verify_args], build)
    assert verify.returncode == 0 and "fail" not in verify.stdout.lower(), \
        f"verify_result.py rejected the output:\n{verify.stdout[-3000:]}\n{verify.stderr[-2000:]}"


# ---- a MIX Matmul inside a SuperKernel ------------------------------------------------------------------

SK_PRODUCT = "ascend910_93"
CUBES, K, N = 2, 32, 64
M = 16 * CUBES


@pytest.fixture(scope="module")
def mix(tree):
    return load(MIX, SK_PRODUCT, backend="devkit")


def _mix_sk(mod, early: int, seed: int):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    a, w, c, y, z = np.zeros_like(x), *(np.zeros((M, N), np.float32) for _ in range(4))
    sk = SuperKernel(SK_PRODUCT, schedule_seed=seed)
    sk.add(mod, "scale_a", 4, x, a, np.uint32(M * K))
    sk.add(mod, "matmul_leaky", CUBES, a, b, w, c, y, np.uint32(K), np.uint32(N), np.uint32(early))
    sk.add(mod, "add_cy", 2, c, y, z, np.uint32(M * N))
    return sk.run(), (x, b, z)


@pytest.mark.parametrize("seed", [0, 1])
def test_mix_matmul_between_vector_tasks_runs_clean_with_early_start(mix, seed):
    report, (x, b, z) = _mix_sk(mix, early=0, seed=seed)
    assert report.races == []
    c = (x.astype(np.float64) * 2) @ b.astype(np.float64)
    want = c + np.where(c >= 0, c, 0.1 * c)
    bound = 2 * _float_sum_bound(2 * x.astype(np.float32), b) + 1e-5 * np.abs(want)
    assert (np.abs(z - want) <= bound).all()


@pytest.mark.parametrize("seed", [0, 1])
def test_aic_set_next_task_start_before_the_last_fixpipe_is_a_race(mix, seed):
    # add_cy runs on 2 AIVs: AIV1 reads rows 16..31 of c, written by AIC1, but learns of the cube side's
    # arrival through its own group's cube core AIC0 (relay flag 13). AIC0 is ordered after AIC1's
    # SetNextTaskStart, which the bug issues before AIC1's Fixpipe into c: one racing pair.
    report, _ = _mix_sk(mix, early=1, seed=seed)
    assert len(report.races) == 1, [r.summary() for r in report.races]
    race = report.races[0]
    assert race.summary().startswith("SUMMARY: ascgen: RAW race c ") and race.summary().endswith("(producer tail)")
    assert (race.earlier.kernel, race.earlier.core, race.earlier.write) == ("matmul_leaky", "AIC1", True)
    assert (race.later.kernel, race.later.core, race.later.write) == ("add_cy", "AIV1", False)
    assert race.span == (4096, 8192) and race.core_pairs == 1
    # The write is the second Fixpipe: named by its line in the kernel, or (until the backend maps
    # intrinsics back to user lines) by the Fixpipe intrinsic.
    where = (race.earlier.file.rsplit("/", 1)[-1], race.earlier.line)
    assert where in {("mix_matmul.cpp", 85), ("copy_matrix_cc_to_gm", 0)}, where


# ascend950 (dav_3510) cube: fp8 A (e4m3fn, M x K) and B^T (e5m2, N x K), ND in GM; ND2NZ into L1, load2d v2
# into L0A (Nz) and L0B, mad (fp8 widened to half), Fixpipe to GM as ND.
MATMUL_FP8_3510 = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t M = 32, N = 48, K = 64;
extern "C" __global__ __cube__ void mm_fp8(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    GlobalTensor<fp8_e4m3fn_t> ag;
    GlobalTensor<fp8_e5m2_t> bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ fp8_e4m3fn_t*)a, M * K);
    bg.SetGlobalBuffer((__gm__ fp8_e5m2_t*)b, N * K);
    cg.SetGlobalBuffer((__gm__ float*)c, M * N);
    LocalTensor<fp8_e4m3fn_t> a1(TPosition::A1, 0, M * K), a2(TPosition::A2, 0, M * K);
    LocalTensor<fp8_e5m2_t> b1(TPosition::B1, M * K, N * K), b2(TPosition::B2, 0, N * K);
    LocalTensor<float> c1(TPosition::CO1, 0, M * N);
    DataCopy(a1, ag, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    DataCopy(b1, bg, Nd2NzParams(1, N, K, 0, K, N, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LoadData2DParamsV2 la, lb;
    la.mStep = M / 16, la.kStep = K / 32, la.srcStride = M / 16, la.dstStride = M / 16;
    lb.mStep = N / 16, lb.kStep = K / 32, lb.srcStride = N / 16, lb.dstStride = N / 16;
    LoadData(a2, a1, la);
    LoadData(b2, b1, lb);
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    MmadParams mp;
    mp.m = M, mp.n = N, mp.k = K, mp.cmatrixInitVal = true;
    Mmad(c1, a2, b2, mp);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> fp;
    fp.mSize = M, fp.nSize = N, fp.srcStride = M, fp.dstStride = N;
    Fixpipe(cg, c1, fp);
}
"""


def test_ascend950_fp8_matmul_matches_numpy(tree):
    import ml_dtypes
    rng = np.random.default_rng(7)
    m, n, k = 32, 48, 64
    # Small integers (exact in both formats, sums exact in float), plus the e4m3 subnormal 2^-9 and 0.5.
    a = rng.integers(-4, 5, (m, k)).astype(np.float32)
    a[0, :2] = (2.0 ** -9, 0.5)
    bt = rng.integers(-4, 5, (n, k)).astype(np.float32)
    c = np.full((m, n), -1, np.float32)
    load(MATMUL_FP8_3510, "ascend950", filename="mm_fp8.cpp", backend="devkit").launch(
        "mm_fp8", 1, a.astype(ml_dtypes.float8_e4m3fn).view(np.uint8), bt.astype(ml_dtypes.float8_e5m2).view(np.uint8), c)
    np.testing.assert_array_equal(c, a @ bt.T)
