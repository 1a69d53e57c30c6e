"""Each fault is a typed error naming kernel, core and source line; the interpreter survives and no core
thread is left running. Kernels: tests/data/runtime_kernels/faults.cpp (each faulting line has a marker)."""
import os
import re
import threading
from pathlib import Path

import numpy as np
import pytest

from ascgen.errors import HangError, KernelCrashError, KernelError, KernelMemoryError, KernelTimeoutError
from ascgen.runtime import load
from tests.paths import RUNTIME_KERNELS

SOURCE = RUNTIME_KERNELS / "faults.cpp"


def marker_line(name: str) -> int:
    for i, line in enumerate(SOURCE.read_text().splitlines(), 1):
        if f"FAULT:{name}" in line:
            return i
    raise AssertionError(f"no FAULT:{name} marker in {SOURCE}")


def os_threads() -> int:
    return len(os.listdir("/proc/self/task"))


@pytest.fixture(scope="module")
def faults():
    return load(SOURCE, product="ascend910b")


def launch_expecting(faults, kernel, error, blocks=4, n=256, **options):
    x = np.zeros(n, dtype=np.float32)
    before_os, before_py = os_threads(), threading.active_count()
    with pytest.raises(error) as info:
        faults.launch(kernel, blocks, x, n, **options)
    exc = info.value
    assert exc.site.kernel == kernel, exc.site
    assert re.fullmatch(r"AI[VC]\d+", exc.site.core or ""), exc.site
    assert exc.site.file and Path(exc.site.file).name == "faults.cpp", exc.site
    assert exc.site.line == marker_line(kernel), (exc.site, str(exc))
    assert os_threads() <= before_os and threading.active_count() <= before_py, "a core thread was left running"
    return exc


def test_gm_out_of_bounds(faults):
    exc = launch_expecting(faults, "gm_out_of_bounds", KernelMemoryError, blocks=5, n=256)
    assert exc.site.core == "AIV4"                    # 4 * 64 + 64 > 256: only the last block overflows


def test_local_tensor_overflow(faults):
    exc = launch_expecting(faults, "local_overflow", KernelMemoryError)
    assert "overflow" in str(exc)


def test_ub_over_capacity_gives_the_numbers(faults):
    exc = launch_expecting(faults, "ub_over_capacity", KernelMemoryError)
    assert str(409600) in str(exc) or "400" in str(exc)


def test_ub_address_not_32_byte_aligned(faults):
    exc = launch_expecting(faults, "ub_misaligned", KernelMemoryError)
    assert "aligned" in str(exc)


def test_datacopy_length_not_a_multiple_of_32_bytes(faults):
    exc = launch_expecting(faults, "datacopy_length", KernelMemoryError)
    assert "28 bytes" in str(exc) and "32" in str(exc)


def test_sync_all_with_a_core_missing_is_reported_as_a_hang(faults):
    exc = launch_expecting(faults, "sync_all_short", HangError)
    assert "AIV3" in str(exc)                          # the core that never arrived is named


def test_loop_calling_the_api_stops_at_the_time_limit(faults):
    exc = launch_expecting(faults, "spin_with_api", KernelTimeoutError, time_limit_s=0.5)
    assert "spin_with_api" in str(exc) or exc.site.kernel == "spin_with_api"


def test_a_loop_that_touches_no_gm_is_stopped_at_its_own_line(faults):
    # Every library op records its caller's line (rt::poll(loc)), so the report points into the loop.
    launch_expecting(faults, "spin_with_barrier", KernelTimeoutError, time_limit_s=0.5)


def test_the_interpreter_keeps_working_after_faults(faults):
    for kernel in ("gm_out_of_bounds", "datacopy_length"):
        with pytest.raises(KernelError):
            faults.launch(kernel, 5, np.zeros(256, np.float32), 256)
    ok = load(RUNTIME_KERNELS / "add_relu.cpp", product="ascend910b")
    x = np.arange(100, dtype=np.float32) - 50
    z = np.zeros_like(x)
    ok.launch("add_relu", 2, x, x, z, 100)
    np.testing.assert_array_equal(z, np.maximum(2 * x, 0))


def test_null_pointer_write_in_isolated_mode_is_a_crash_report(faults):
    before = os_threads()
    with pytest.raises(KernelCrashError) as info:
        faults.launch("null_write", 4, np.zeros(4, np.float32), 4, isolated=True)
    exc = info.value
    assert exc.site.kernel == "null_write"
    assert exc.site.core == "AIV1"
    assert Path(exc.site.file).name == "faults.cpp" and exc.site.line == marker_line("null_write"), str(exc)
    assert "SIGSEGV" in str(exc) and "null pointer" in str(exc)
    assert os_threads() <= before   # none left behind (another test's thread may end meanwhile)


def test_bare_infinite_loop_in_isolated_mode_is_killed_at_the_time_limit(faults):
    with pytest.raises(KernelTimeoutError, match="spin_bare"):
        faults.launch("spin_bare", 2, np.zeros(4, np.float32), 4, isolated=True, time_limit_s=1.0)


def test_isolated_success_writes_results_back(faults):
    ok = load(RUNTIME_KERNELS / "add_relu.cpp", product="ascend910b")
    x = np.arange(64, dtype=np.float32) - 20
    z = np.zeros_like(x)
    result = ok.launch("add_relu", 2, x, x, z, 64, isolated=True)
    np.testing.assert_array_equal(z, np.maximum(2 * x, 0))
    from ascgen.runtime.core import RunResult     # the type an in-process launch returns, with its fields
    assert isinstance(result, RunResult) and result.geometry == ok.launch("add_relu", 2, x, x, z, 64).geometry
    assert result.wall_s > 0


def test_isolated_mode_relays_typed_errors(faults):
    with pytest.raises(KernelMemoryError) as info:
        faults.launch("datacopy_length", 2, np.zeros(64, np.float32), 64, isolated=True)
    assert info.value.site.line == marker_line("datacopy_length")


def test_the_same_kernel_in_two_folders_builds_once_and_reports_each_folders_file(faults, tmp_path):
    """One module serves both copies (the build is relocatable); each copy's reports name its own file, in
    process and from the isolated worker's crash handler."""
    copies = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        copies.append(tmp_path / name / "faults.cpp")
        copies[-1].write_text(SOURCE.read_text())
    mods = [load(c, product="ascend910b") for c in copies]
    assert mods[0].so_path == mods[1].so_path == faults.so_path
    for mod, copy in zip(mods, copies):
        with pytest.raises(KernelMemoryError) as info:
            mod.launch("gm_out_of_bounds", 5, np.zeros(256, np.float32), 256)
        assert info.value.site.file == str(copy), info.value.site
        with pytest.raises(KernelCrashError) as crash:
            mod.launch("null_write", 4, np.zeros(4, np.float32), 4, isolated=True)
        assert crash.value.site.file == str(copy) and str(copy) in str(crash.value), str(crash.value)
