"""`ascgen ut` end to end on a synthetic ops-nn-shaped repository (builtin backend: quick to build), and
its bad inputs: a folder with no UTs, googletest missing, Ctrl-C in the middle of a sweep."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ascgen import cli, config
from tests.paths import REPO
from tests.ut import synthetic
from tests.ut.test_scratch import tree_digest


def _ut(*args, env=None, **kw):
    return subprocess.run([sys.executable, "-m", "ascgen", "ut", *args], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=600, **kw)


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    return synthetic.nn_repo(tmp_path_factory.mktemp("ut") / "nn")


def test_every_case_gets_its_verdict_and_the_checkout_is_untouched(repo):
    before = tree_digest(repo)
    proc = _ut(str(repo / "cat" / "add_one"), "--backend", "builtin", "--format", "json", "--jobs", "2",
               "--time-limit", "0.2")
    cases = {c["test"]: c for c in map(json.loads, proc.stdout.splitlines())}
    assert {t: c["status"] for t, c in cases.items()} == synthetic.CASES, proc.stderr
    assert set(cases["AddOneTest.ran"]) == {"repository", "op", "file", "product", "test", "status", "reason",
                                            "seconds"}
    assert cases["AddOneTest.ran"]["file"] == "cat/add_one/tests/ut/op_kernel/test_add_one.cpp"
    assert "add_one.cpp:22" in cases["AddOneTest.fault"]["reason"]           # ascgen's report, its line
    assert "SIGSEGV" in cases["AddOneTest.crash"]["reason"] and "test_add_one.cpp:" in cases["AddOneTest.crash"]["reason"]
    assert "killed" in cases["AddOneTest.hang"]["reason"]
    assert cases["AddOneTest.wrong"]["reason"] == "compare_data.py 2: FAILED!"
    assert "needs ascgen_absent_module" in cases["AddOneTest.needs_module"]["reason"]
    assert proc.returncode == 1                       # wrong, fault: not a clean run
    assert "9 case(s): 1 passed-compared, 2 passed-ran, 2 wrong, 3 fault, 1 unsupported" in proc.stderr
    assert tree_digest(repo) == before


def _modules(repo: Path) -> set:
    """The UT program modules (ascgen_ut_main-*) built for `repo`'s op (its folders are on their include path,
    which the module's manifest records): other xdist workers build UT programs of their own synthetic
    repositories into the same cache meanwhile, which says nothing about whether this `ascgen ut` rebuilt."""
    return {m.with_suffix(".so") for m in config.cache_dir().glob("ascgen_ut_main-*.json")
            if str(repo) in m.read_text(errors="replace")}


def test_ctrl_c_kills_the_cases_prints_what_ran_and_exits_130(repo, tmp_path):
    """Runs after the test above: the program is cached, so nothing is rebuilt either."""
    built = _modules(repo)
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "ascgen", "ut", str(repo / "cat" / "add_one"), "--backend",
                             "builtin", "--filter", "AddOneTest.[rh]a*", "--time-limit", "30"], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()                    # AddOneTest.ran; then the hang starts
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert first.startswith("passed-ran") and "AddOneTest.hang" not in out
    assert "interrupted" in err and "1 case(s): 1 passed-ran" in err
    assert list(tmp_path.iterdir()) == []             # the scratch tree is gone: its case was killed first
    assert built and _modules(repo) == built        # the second ascgen ut of the op did not rebuild


def test_a_folder_without_uts_is_one_clear_line(repo, capsys):
    (repo / "empty").mkdir(exist_ok=True)
    assert cli.main(["ut", str(repo / "empty"), "--backend", "builtin"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no kernel UT rules (AddOpTestCase in a CMakeLists.txt) found" in err


def test_missing_googletest_says_what_to_install(repo, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ASCGEN_GTEST_ROOT", str(tmp_path))
    assert cli.main(["ut", str(repo), "--backend", "builtin"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "googletest is not installed" in err and "libgtest-dev" in err
