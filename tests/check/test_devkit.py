"""`ascgen check` on real Ascend C from the public asc-devkit (the tree of the ASCGEN_ASC_DEVKIT setting,
read at test time, never committed): its task_sync example is clean, seeded mutations of it are caught at the
right line, and large examples (templates, CANN headers we do not ship) are analysed without crashing.
Timings are measured by benchmarks/bench_check.py, not asserted here."""
from __future__ import annotations

from pathlib import Path

import pytest

from ascgen.check import check_file

from tests import devkit_tree

TASK_SYNC = "examples/01_simd_cpp_api/03_basic_api/05_sync_control/task_sync/task_sync.asc"
LARGE = [
    "examples/01_simd_cpp_api/04_advanced_api/08_transpose/add_broadcast/add_broadcast.asc",
    "examples/01_simd_cpp_api/04_advanced_api/02_normalization/layernorm/layernorm.asc",
    "examples/01_simd_cpp_api/05_best_practices/01_matrix_compute/matmul_basic_api_high_performance/mmad.asc",
    "examples/01_simd_cpp_api/05_best_practices/03_fusion_compute/quant_group_matmul_high_performance/"
    "quant_group_matmul_custom.asc",
    "examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/load_data_l12l0/load_data_l12l0.asc",
]


@pytest.fixture(scope="module")
def mirror() -> Path:
    return devkit_tree.require()


def show(mirror: Path, name: str) -> str:
    return devkit_tree.read(mirror, name)


@pytest.fixture(scope="module")
def task_sync(mirror, tmp_path_factory) -> str:
    return show(mirror, TASK_SYNC)


def write(tmp_path, text: str, name="task_sync.asc") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("product", [None, "ascend910_93"])
def test_task_sync_example_is_clean(task_sync, tmp_path, product):
    result = check_file(write(tmp_path, task_sync), product=product)
    assert result.kernels == ["kernel_task_sync"]
    assert result.diagnostics == []
    # Only the example's own helper header (not shipped) is skipped; the kernel itself parsed fully.
    assert [s.what for s in result.skipped] == ['#include "data_utils.h"']


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_mutation_set_before_last_copy(task_sync, tmp_path):
    lines = task_sync.splitlines()
    copy = _line_of(task_sync, "AscendC::DataCopy(dstGlobal, dstLocal")
    arrive = _line_of(task_sync, "AscendC::SetNextTaskStart();")
    lines.insert(copy - 1, lines.pop(arrive - 1))         # the set now precedes the last GM write
    mutated = "\n".join(lines)
    result = check_file(write(tmp_path, mutated))
    assert [(d.line, d.rule, d.severity) for d in result.diagnostics] == [
        (_line_of(mutated, "AscendC::DataCopy(dstGlobal, dstLocal"), "tasksync-gm-after-set", "error")]


def test_mutation_wait_on_one_core_only(task_sync, tmp_path):
    mutated = task_sync.replace("        AscendC::WaitPreTaskEnd();",
                                "        if (AscendC::GetBlockIdx() == 0) {\n"
                                "            AscendC::WaitPreTaskEnd();\n        }")
    result = check_file(write(tmp_path, mutated))
    rules = [(d.line, d.rule) for d in result.diagnostics]
    assert rules == [(_line_of(mutated, "if (AscendC::GetBlockIdx() == 0)"), "tasksync-once-per-path")]
    assert "`AscendC::GetBlockIdx() == 0` is false" in result.diagnostics[0].message


def test_mutation_set_in_a_loop_through_a_template_method(task_sync, tmp_path):
    mutated = task_sync.replace("        AscendC::SetNextTaskStart();",
                                "        for (int i = 0; i < 2; i++) {\n"
                                "            AscendC::SetNextTaskStart();\n        }")
    result = check_file(write(tmp_path, mutated))
    assert [(d.line, d.rule) for d in result.diagnostics] == [
        (_line_of(mutated, "            AscendC::SetNextTaskStart();"), "tasksync-in-loop")]


@pytest.mark.parametrize("name", LARGE, ids=[Path(n).name for n in LARGE])
def test_large_example_is_analysed(mirror, tmp_path, name):
    text = show(mirror, name)
    assert text.count("\n") > 200
    result = check_file(write(tmp_path, text, Path(name).name), product="ascend910_93")
    assert result.kernels, "no kernel entry found"
    # These examples do not use task sync: at most the SuperKernel-incompatibility warnings may appear.
    assert {d.rule for d in result.diagnostics} <= {"sk-forbidden-intrinsic"}
    assert all(d.severity == "warning" for d in result.diagnostics)


def test_a_sample_of_all_examples_never_crashes(mirror, tmp_path):
    """Every 8th .asc example of the mirror: analysed, or refused with a reason (AscgenError), never a
    Python exception (benchmarks/bench_check.py runs all of them and times them)."""
    from ascgen.errors import AscgenError
    names = sorted(str(p.relative_to(mirror)) for p in (mirror / "examples").rglob("*.asc"))
    sample = [n for n in names if n.endswith(".asc")][::8]
    assert len(sample) >= 20
    analysed = 0
    for name in sample:
        path = write(tmp_path, show(mirror, name), Path(name).name)
        try:
            result = check_file(path, product="ascend910_93")
        except AscgenError as exc:
            assert "no kernel entry" in str(exc), f"{name}: {exc}"
            continue
        analysed += 1
        assert not result.errors, f"{name}: {[str(d) for d in result.errors]}"
    assert analysed >= len(sample) * 0.8
