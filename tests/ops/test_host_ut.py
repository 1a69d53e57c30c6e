"""`ascgen ut --host`: an operator repository's op_host tiling UTs, built against the ops host runtime
(ascgen/ops/host_ut.py). A synthetic repository gives each status once (tests/ops/host_ut_synthetic.py); one
real ops-math UT file, unchanged, must pass case by case."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from ascgen import config
from tests.ops import host_ut_synthetic as synthetic
from tests.ops.test_host_tiling import _cann
from tests.paths import REPO


def _gtest():
    if config.gtest_root() is None:
        pytest.skip(config.GTEST_HINT)


def _ut(*args):
    proc = subprocess.run([sys.executable, "-m", "ascgen", "ut", "--host", "--format", "json", *map(str, args)],
                          cwd=REPO, capture_output=True, text=True, env=os.environ.copy(), timeout=900)
    return proc, {c["test"]: c for c in map(json.loads, proc.stdout.splitlines())}


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    return synthetic.repository(tmp_path_factory.mktemp("host-ut") / "repo")


def test_each_case_gets_its_own_verdict(repo):
    _cann()
    _gtest()
    proc, cases = _ut(repo / "cat" / "plus", "--jobs", "2")
    assert {t: c["status"] for t, c in cases.items()} == synthetic.CASES, proc.stderr[-2000:]
    assert "cat/plus/tests/ut/op_host/test_plus_tiling.cpp:27: Expected equality" in cases["PlusTiling.wrong"]["reason"]
    assert "Twice(3) Which is: 6 7" in cases["PlusTiling.wrong"]["reason"]         # gtest's failure, its line
    assert "SIGSEGV" in cases["PlusTiling.crash"]["reason"]
    assert "SoCInfo.ai_core_cnt" in cases["PlusTiling.unmodelled_platform_value"]["reason"]
    assert cases["PlusTiling.registered"]["file"] == "cat/plus/tests/ut/op_host/test_plus_tiling.cpp"
    assert proc.returncode == 1                         # a wrong case and a fault
    assert "5 case(s): 2 passed-ran, 1 wrong, 1 fault, 1 unsupported" in proc.stderr


def test_a_closed_header_is_unsupported_by_name(repo):
    _cann()
    _gtest()
    proc, cases = _ut(repo / "cat" / "closed")
    assert set(cases) == {"ClosedTiling.needs_closed_header", "ClosedTiling.second"}
    for case in cases.values():
        assert case["status"] == "unsupported"
        assert "runtime/rt_closed_only.h" in case["reason"], case["reason"]
    assert proc.returncode == 0


def test_ctrl_c_kills_the_running_case_and_starts_no_other(repo):
    _cann()
    _gtest()
    proc = subprocess.Popen([sys.executable, "-m", "ascgen", "ut", "--host", str(repo / "cat" / "slow")], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    first = proc.stdout.readline()                    # SlowTiling.a_first; then b_hang starts
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert "SlowTiling.a_first" in first
    assert proc.returncode == 130, err[-2000:]
    assert "never_started" not in out + err
    assert "1 case(s): 1 passed-ran (interrupted" in err


def test_no_host_uts_under_a_path_is_bad_input(tmp_path, repo):
    _cann()
    _gtest()
    proc, _ = _ut(repo / "tests")
    assert proc.returncode == 2 and "no op_host tiling UTs" in proc.stderr


def test_a_real_tiling_ut_passes_unchanged():
    """ops-math math/accumulate_nv2/tests/ut/op_host/arch35/test_accumulate_nv2_tiling.cpp: its cases assert the
    tiling key and workspace of AccumulateNV2's tiling function for ascend950 (arch35)."""
    cann = _cann()
    _gtest()
    proc, cases = _ut(cann / "ops-math" / "math" / "accumulate_nv2")
    assert len(cases) == 9 and {c["status"] for c in cases.values()} == {"passed-ran"}, proc.stderr[-2000:]
    assert {c["product"] for c in cases.values()} == {"ascend950"}
    assert proc.returncode == 0


def test_compute_units_from_the_add_modules_sources_arguments():
    """ops-nn activation/softplus_grad names its unit and tiling folder only as arguments:
    `add_modules_sources(... COMPUTE_UNIT ascend950 TILING_DIR arch35 ...)` (op_host/CMakeLists.txt)."""
    from ascgen import products
    from ascgen.errors import OpTilingError
    from ascgen.ops import host_build
    op = _cann() / "ops-nn" / "activation" / "softplus_grad"
    sources = host_build.tiling_sources(op, products.get("ascend950"))
    assert [s.relative_to(op).as_posix() for s in sources] == ["op_host/arch35/softplus_grad_tiling.cpp"]
    with pytest.raises(OpTilingError, match="ascend950 only"):
        host_build.tiling_sources(op, products.get("ascend910b"))
