"""The asc-devkit examples `ascgen run` must run unchanged, and how each is driven (its README's steps).

Each case is one test below; the results are listed in docs/devkit.md.
The example folders are copied from the asc-devkit tree (tests/devkit_tree.py) into a temporary folder at
test time, never committed.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests import devkit_tree
from tests.paths import REPO

BASIC = "examples/01_simd_cpp_api/03_basic_api"
VEC = f"{BASIC}/01_memory_vector_compute"
SYNC = f"{BASIC}/05_sync_control"


@dataclass(frozen=True)
class Case:
    id: str
    folder: str                     # the example folder in the asc-devkit tree
    source: str                     # the .asc file inside it
    defines: tuple = ()             # -D for the build (CMake -DSCENARIO_NUM=...)
    gen_args: tuple = ()            # scripts/gen_data.py arguments; None: the example has no scripts
    verify_args: tuple | None = ("output/output.bin", "output/golden.bin")
    product: str = "ascend910b"     # CMAKE_ASC_ARCHITECTURES dav-2201 unless the README says otherwise
    has_scripts: bool = True
    extra: dict = field(default_factory=dict)


def _scenarios(name, folder, count, flag, start=1, verify_extra=lambda n: (), arch3510=(), **kw):
    """One case per SCENARIO_NUM; scenarios in `arch3510` exist only under __NPU_ARCH__ == 3510 (their
    source compiles them out on dav-2201), so they run as ascend950."""
    return [Case(f"{name}[{n}]", folder, f"{Path(folder).name}.asc", (f"SCENARIO_NUM={n}",),
                 (f"{flag}={n}",), ("output/output.bin", "output/golden.bin", *verify_extra(n)),
                 product="ascend950" if n in arch3510 else "ascend910b", **kw)
            for n in range(start, start + count)]


CASES: list[Case] = [
    Case("add", "examples/01_simd_cpp_api/00_introduction/01_add/add", "add.asc", has_scripts=False,
         verify_args=None),
    Case("add_tpipe_tque", "examples/01_simd_cpp_api/00_introduction/01_add/add_tpipe_tque", "add_tpipe_tque.asc"),
    Case("element_wise_arithmetic", f"{VEC}/element_wise_arithmetic", "element_wise_arithmetic.asc"),
    *_scenarios("element_wise_compound_compute", f"{VEC}/element_wise_compound_compute", 2, "-scenarioNum"),
    *_scenarios("element_wise_logic", f"{VEC}/element_wise_logic", 4, "-scenarioNum", arch3510=(2, 3)),
    *_scenarios("cast", f"{VEC}/cast", 2, "-scenarioNum", start=0),     # 0: half <-> int4b_t
    *_scenarios("compare", f"{VEC}/compare", 4, "-scenario_num", verify_extra=lambda n: (f"-scenario_num={n}",),
                arch3510=(4,)),
    *_scenarios("select", f"{VEC}/select", 4, "-scenario_num", arch3510=(4,)),
    Case("duplicate", f"{VEC}/duplicate", "duplicate.asc"),
    Case("brcb", f"{VEC}/brcb", "brcb.asc"),
    Case("create_vec_index", f"{VEC}/create_vec_index", "create_vec_index.asc"),
    # Beyond the element-wise set: gathers, reductions, transposes.
    *_scenarios("gather", f"{VEC}/gather", 4, "-scenario_num", verify_extra=lambda n: (str(n),)),
    *_scenarios("reduce_computation", f"{VEC}/reduce_computation", 6, "-scenarioNum",
                verify_extra=lambda n: (f"-scenarioNum={n}",)),
    *_scenarios("reduce_data_block", f"{VEC}/reduce_data_block", 3, "-scenarioNum",
                verify_extra=lambda n: (f"-scenarioNum={n}",)),
    Case("reduce_pair_elem", f"{VEC}/reduce_pair_elem", "reduce_pair_elem.asc"),
    *_scenarios("transpose", f"{VEC}/transpose", 3, "-scenario_num"),
    *_scenarios("reduce_repeat", f"{VEC}/reduce_repeat", 4, "-scenarioNum",
                verify_extra=lambda n: (f"-scenarioNum={n}",)),
    *[Case(f"interleave_pair[{n}]", f"{VEC}/interleave_pair", "interleave_pair.asc", (f"SCENARIO_NUM={n}",),
           (f"-scenarioNum={n}",), ("./output/output_dst0.bin", "./output/output_dst1.bin",
                                    "./output/golden_dst0.bin", "./output/golden_dst1.bin"), product="ascend950")
      for n in (1, 2)],
    Case("task_sync", f"{SYNC}/task_sync", "task_sync.asc"),
    Case("sync_all", f"{SYNC}/sync_all", "sync_all.asc"),
    *[Case(f"cross_core_set_wait_flag[{n}]", f"{SYNC}/cross_core_set_wait_flag", "cross_core_set_wait_flag.asc",
           (f"SCENARIO_NUM={n}",), ("-scenarioNum", str(n)), ("./output/output.bin", "./output/golden.bin"))
      for n in (0, 1, 2)],          # 2: Mmad on the AIC cores feeding LeakyRelu on the AIVs (MIX 1:2)
]


# ---- the tests ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def devkit():
    return devkit_tree.require()


def _run(cmd, cwd, timeout=300):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


def _first_of_each_example(cases):
    """The default run takes one scenario of each example and each product (a dav-3510 scenario as well as a
    dav-2201 one); the others are `slow` (`pytest -m slow`; benchmarks/bench_devkit.py sweeps them all)."""
    seen, out = set(), []
    for c in cases:
        key = (c.folder, c.product)
        out.append(pytest.param(c, id=c.id, marks=() if key not in seen else pytest.mark.slow))
        seen.add(key)
    return out


@pytest.mark.parametrize("case", _first_of_each_example(CASES))
def test_devkit_example_runs_unchanged(case, devkit, tmp_path):
    _drive(case, devkit, tmp_path, "builtin")


# The same examples on the devkit backend (the real library on ascgen's CPU model, docs/devkit.md): a small
# set, because each compiles against the real headers (seconds each). The sync examples the builtin
# backend cannot run (its AscendC:: has no IBSet / WriteGmByPassDCache / InitDetermineComputeWorkspace)
# run here unchanged. benchmarks/bench_devkit.py sweeps every example on both backends.
DEVKIT_ONLY = [
    Case("data_sync_barrier", f"{SYNC}/data_sync_barrier", "data_sync_barrier.asc"),
    Case("sequential_block_sync", f"{SYNC}/sequential_block_sync", "sequential_block_sync.asc"),
    # The library's Matmul API, MIX 1:2: the AIVs' Matmul clients send the AIC server messages through the
    # workspace, LeakyRelu on the AIVs; host tiling by the library's MultiCoreMatmulTiling. One case only: it
    # compiles the library's Matmul (about a minute cold; the cube-only examples are in the sweep).
    Case("matmul_leakyrelu_api", "examples/01_simd_cpp_api/00_introduction/03_fusion_operation/"
         "matmul_leakyrelu_advanced_api", "matmul_leakyrelu_advanced_api.asc"),
    # The advanced API: SoftMax with its host tiling (Brcb, BlockReduceMax/Sum inside the library); its own
    # main compares with the golden and prints "test pass".
    Case("softmax", "examples/01_simd_cpp_api/04_advanced_api/01_activation/softmax", "softmax.asc",
         verify_args=None),
    # ascend950 DataCopyPad in loop mode: Compact [4] packs the bursts and pads their end to 32 bytes, Normal
    # [5] pads each burst to 32 bytes (runtime/devkit/include/ascgen_devkit/dav3510/dma.h); both gave wrong
    # answers before that rule.
    *[Case(f"data_copy_pad[{n}]", f"{BASIC}/00_data_movement/data_copy_pad_gm2ub_ub2gm", "data_copy_pad.asc",
           (f"SCENARIO_NUM={n}",), (f"-scenarioNum={n}",),
           ("output/output.bin", "output/golden.bin", f"-scenarioNum={n}"), product="ascend950") for n in (4, 5)],
    # The ascend950 cube (runtime/devkit/include/ascgen_devkit/dav3510/cube.h). [7]: int8 A loaded transposed
    # into L0A (Nz) in 32 x 32 squares, a loop whose dstStride lets each load spill into the next column
    # block; mad reads the Nz A; Fixpipe writes ND.
    Case("load_data_2dv2_l12l0[7]", f"{BASIC}/03_matrix_compute/load_data_2dv2_l12l0", "load_data_2dv2_l12l0.asc",
         ("SCENARIO_NUM=7",), ("-scenarioNum=7",), ("output/output.bin", "output/golden.bin", "-scenarioNum=7"),
         product="ascend950"),
    # [4]: MIX 1:2, the AIC's Fixpipe writes half of the columns into each AIV's UB (dual destination); the
    # AIVs copy their halves to GM.
    Case("fixpipe_l0c2ub[4]", f"{BASIC}/03_matrix_compute/fixpipe_l0c2ub", "fixpipe_l0c2ub.asc",
         ("SCENARIO_NUM=4",), ("-scenarioNum=4",), product="ascend950"),
]
# cross_core_set_wait_flag[2]: the kernel's own flags 11-13 beside the library's SyncAll / task-sync flags
# (runtime/devkit/include/ascgen_devkit/tasksync.h tells them apart by the library function that sets them).
DEVKIT_CASES = [c for c in CASES if c.id in ("add", "task_sync", "sync_all", "cross_core_set_wait_flag[2]")] + DEVKIT_ONLY


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in DEVKIT_CASES])
def test_devkit_example_on_the_devkit_backend(case, devkit, tmp_path):
    # A fixed folder in the test cache, so a rerun finds the module built (its key holds the source's path).
    stable = Path(os.environ["ASCGEN_CACHE_DIR"]) / "devkit-examples" / case.id
    shutil.rmtree(stable, ignore_errors=True)
    _drive(case, devkit, stable, "devkit")


def _drive(case, devkit, tmp_path, backend):
    root = devkit_tree.extract(devkit, case.folder, tmp_path)
    build = root / "build"
    build.mkdir()
    (build / "input").mkdir()
    (build / "output").mkdir()
    if case.has_scripts:
        code, text = devkit_tree.run_script(root / "scripts" / "gen_data.py", list(case.gen_args), build)
        assert code == 0, f"gen_data.py failed:\n{text}"
    cmd = [sys.executable, "-m", "ascgen", "run", str(root / case.source), "--product", case.product,
           "--cwd", str(build), "--time-limit", "60", "--backend", backend]
    for d in case.defines:
        cmd += ["-D", d]
    run = _run(cmd, build)
    assert run.returncode == 0, f"ascgen run exited {run.returncode}:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    if case.verify_args is None:
        assert "test pass" in run.stdout, run.stdout[-2000:]
        return
    code, text = devkit_tree.run_script(root / "scripts" / "verify_result.py", list(case.verify_args), build)
    assert code == 0 and "fail" not in text.lower(), f"verify_result.py rejected the output:\n{text[-3000:]}"
