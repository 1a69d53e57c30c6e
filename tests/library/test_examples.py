"""Public asc-devkit examples compiled against the emulated library and run on the single-threaded rt
stub, checked by the examples' own gen_data.py / verify_result.py (or the program's own check).

Only examples whose blocks do not wait for each other run here (the stub executes blocks one after
another); the multi-core ones (sync_all, task_sync, cross_core_set_wait_flag) are compile-checked here
and run for real by the runtime's tests. The sources are read from the local asc-devkit mirror at test
time; nothing of it is copied into this repository.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from tests.library import harness

from tests import devkit_tree

BASE = "examples/01_simd_cpp_api"
VEC = f"{BASE}/03_basic_api/01_memory_vector_compute"
SYNC = f"{BASE}/03_basic_api/05_sync_control"

pytestmark = [pytest.mark.skipif(not harness.have_compiler(), reason="no C++ compiler on PATH")]

# (example dir, scenarios) that run on the stub; None = no SCENARIO_NUM. Scenarios the examples' CMake
# files build only for dav-3510 (Ascend 950) are compiled with __NPU_ARCH__=3510.
# Only the examples tests/library/test_devkit_examples.py does not run: every scenario of the others runs
# unchanged through the whole stack there (`ascgen run` on the same emulated library, the builtin backend),
# so running them here too compiled the same library code again (20 programs, about 40 s of the suite's CPU;
# docs/testing.md). benchmarks/bench_devkit.py sweeps every example.
ARCH_3510: set[tuple[str, int | None]] = set()
ARCH_2002 = {("region_proposal_sort", None)}   # built for dav-2002 (Atlas inference) only
RUN = [
    (f"{VEC}/reduce", [None]),
    (f"{VEC}/mrg_sort", [1, 2, 3]),
]
# Examples with an out-of-bounds access the device tolerates: the emulator must report it.
# region_proposal_sort extracts WORK_SIZE / 16 = 32 repeats (512 proposals) from a 64-proposal buffer
# into a 64-element tensor; only the first 64 results are copied out, so the device output looks right.
FAULTS = [(f"{VEC}/region_proposal_sort", None, "region_proposal_sort.asc:79: local tensor overflow: ProposalExtract")]
# Compile-only here: they need cores that run at the same time.
COMPILE = [(f"{SYNC}/sync_all", [None]), (f"{SYNC}/task_sync", [None]),
           (f"{SYNC}/cross_core_set_wait_flag", [0, 1, 2])]


@lru_cache(maxsize=None)
def _example_files(example: str) -> tuple[tuple[str, bytes], ...]:
    """The example's sources and scripts, read from the asc-devkit tree once per test process."""
    root = devkit_tree.require() / example
    return tuple((str(path.relative_to(root)), path.read_bytes()) for path in sorted(root.rglob("*"))
                 if path.is_file() and path.suffix in (".asc", ".h", ".cpp", ".py", ".md"))


def _fetch(example: str, dest: Path) -> Path:
    for rel, data in _example_files(example):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_bytes(data)
    return dest


def _program(src_dir: Path) -> str:
    from ascgen.runtime.host_rewrite import rewrite
    asc = next(src_dir.glob("*.asc"))
    text, _ = rewrite(asc.read_text(), asc.name)
    return text


def _commands(readme: str, scenario) -> tuple[list[str], list[str]]:
    """The gen_data and verify_result command lines of the example's README, $SCENARIO_NUM filled in."""
    lines = [l.split("#")[0].strip() for l in readme.splitlines()]
    gen = next((l for l in lines if re.match(r"python3? \.\./scripts/gen_data\.py", l)), None)
    ver = next((l for l in lines if re.match(r"python3? \.\./scripts/verify_result\.py", l)), None)
    fill = lambda l: l.replace("$SCENARIO_NUM", str(scenario)).split()[1:] if l else []   # noqa: E731
    return fill(gen), fill(ver)


def _case_id(case):
    example, scenario = case
    return Path(example).name + ("" if scenario is None else f"-{scenario}")


def _cases(table):
    return [(ex, s) for ex, scenarios in table for s in scenarios]


@pytest.mark.parametrize("case", _cases(RUN), ids=_case_id)
def test_example_runs_and_matches_its_golden(case, tmp_path):
    example, scenario = case
    src = _fetch(example, tmp_path / "src")
    flags = () if scenario is None else (f"-DSCENARIO_NUM={scenario}",)
    key = (Path(example).name, scenario)
    arch = 3510 if key in ARCH_3510 else 2002 if key in ARCH_2002 else 2201
    exe = harness.build(f"ex_{_case_id(case)}", _program(src), flags=flags, includes=(src,), arch=arch)
    build = src / "build"
    (build / "input").mkdir(parents=True)
    (build / "output").mkdir()
    readme = (src / "README.md").read_text() if (src / "README.md").exists() else ""
    gen, verify = _commands(readme, scenario)
    if gen:
        code, text = devkit_tree.run_script(build / gen[0], gen[1:], build)
        assert code == 0, text
    res = harness.run(exe, cwd=build, timeout=120)
    out = res.stdout.decode() + res.stderr.decode()
    assert res.returncode == 0, out
    if verify:
        code, text = devkit_tree.run_script(build / verify[0], verify[1:], build)
        assert code == 0 and "pass" in text.lower(), text
    else:
        assert "test pass" in out, out     # the program checks itself


@pytest.mark.parametrize("example,scenario,message", FAULTS)
def test_example_with_a_latent_overflow_is_reported(example, scenario, message, tmp_path):
    src = _fetch(example, tmp_path / "src")
    key = (Path(example).name, scenario)
    arch = 3510 if key in ARCH_3510 else 2002 if key in ARCH_2002 else 2201
    exe = harness.build(f"ex_{_case_id((example, scenario))}", _program(src), includes=(src,), arch=arch)
    build = src / "build"
    (build / "input").mkdir(parents=True)
    (build / "output").mkdir()
    gen, _ = _commands((src / "README.md").read_text(), scenario)
    code, text = devkit_tree.run_script(build / gen[0], gen[1:], build)
    assert code == 0, text
    res = harness.run(exe, cwd=build, timeout=120)
    assert res.returncode != 0 and message in res.stderr.decode(), res.stderr.decode()


@pytest.mark.parametrize("case", _cases(COMPILE), ids=_case_id)
def test_multicore_example_compiles(case, tmp_path):
    example, scenario = case
    src = _fetch(example, tmp_path / "src")
    prog = tmp_path / "prog.cpp"
    prog.write_text(_program(src))
    flags = () if scenario is None else (f"-DSCENARIO_NUM={scenario}",)
    res = harness.syntax_check(prog, flags=flags, includes=(src,))
    assert res.returncode == 0, res.stderr
