"""The pytest plugin (issue 21 point 8): its fixtures drive a SuperKernel test here, and a builder spec's
kernels are collected as items with stable ids that `pytest -n 2` spreads over two workers."""
import os
import re
import subprocess
import sys

import numpy as np

from tests.paths import EXAMPLES, REPO, SK_BUGS


def test_fixtures_run_a_superkernel(ascgen_load, ascgen_superkernel, ascgen_product, ascgen_backend):
    assert ascgen_product == "ascend910_93" and ascgen_backend == "builtin"      # the defaults
    good = ascgen_load(SK_BUGS / "good.cpp")
    assert ascgen_load(SK_BUGS / "good.cpp") is good                                # compiled once per session
    n = 8 * 512
    x = np.arange(n, dtype=np.float32); y = np.zeros_like(x); z = np.zeros_like(x)
    report = ascgen_superkernel.add(good, "scale", 8, x, y, np.uint32(n)).add(good, "shift", 4, y, z, np.uint32(n)).run()
    assert report.clean and np.array_equal(z, 2 * x + 1)


def _pytest(*args, cwd):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "ascgen.pytest_plugin", "-p", "no:cacheprovider",
                           *args], cwd=cwd, capture_output=True, text=True, timeout=600, env=env)


def test_spec_kernels_are_items_with_stable_ids_spread_by_xdist(tmp_path):
    spec = tmp_path / "two.py"
    spec.write_text((EXAMPLES / "add_relu.py").read_text() + (
        '\nfrom ascgen.builder import Kernel as _K\n'
        'neg = _K("neg", block_dim=4, tile_length=1024)\nneg.output("y", neg.input("x", "float32") * -1.0)\n'))
    ids = ["two.py::add_relu[ascend910_93-builtin]", "two.py::neg[ascend910_93-builtin]"]   # file::kernel[product-backend]
    ran = _pytest("--ascgen-spec", str(spec), "-n", "2", "-v", cwd=tmp_path)
    assert ran.returncode == 0 and "2 passed" in ran.stdout, ran.stdout + ran.stderr
    done = [line for line in ran.stdout.splitlines() if line.startswith("[gw") and "PASSED" in line]
    assert sorted(line.split()[-1] for line in done) == ids, ran.stdout      # the stable ids, run on the workers


def test_an_unknown_backend_is_a_usage_error_naming_the_registered_ones(tmp_path):
    spec = tmp_path / "one.py"
    spec.write_text((EXAMPLES / "add_relu.py").read_text())
    ran = _pytest("--ascgen-spec", str(spec), "--ascgen-backend", "nope", cwd=tmp_path)
    assert ran.returncode == 4, ran.stdout + ran.stderr                   # pytest's usage-error status
    assert "--ascgen-backend nope: not a backend; use one of builtin, devkit" in ran.stderr, ran.stderr


def test_operator_ut_cases_are_items_with_their_verdicts_spread_by_xdist(tmp_path):
    """Each declared case of a synthetic op's UT program is an item: passes pass, wrong answers and faults
    fail with their reason, a named missing piece is a skip; two workers share the work."""
    from tests.ut import synthetic
    repo = synthetic.nn_repo(tmp_path / "nn")
    ran = _pytest("--ascgen-ut", str(repo / "cat" / "add_one"), "--ascgen-backend", "builtin",
                  "--ascgen-ut-time-limit", "0.2", "-n", "2", "-v", "-rs", cwd=repo)
    rule = "cat/add_one/tests/ut/op_kernel/CMakeLists.txt"
    outcome = {"passed-compared": "PASSED", "passed-ran": "PASSED", "wrong": "FAILED", "fault": "FAILED",
               "unsupported": "SKIPPED"}
    expected = {f"{rule}::{case}[add_one@ascend910b-builtin]": outcome[status]
                for case, status in synthetic.CASES.items()}
    seen = {m[2]: m[1] for m in re.finditer(r"^\[gw\d\].*?(PASSED|FAILED|SKIPPED) (\S+)\s*$", ran.stdout, re.M)}
    assert seen == expected, ran.stdout + ran.stderr
    assert "compare_data.py 2: FAILED!" in ran.stdout                 # a wrong case's reason
    assert "needs ascgen_absent_module" in ran.stdout                 # the skip's reason (-rs)
    assert ran.returncode == 1


def test_a_ut_path_without_rules_is_a_usage_error(tmp_path):
    from tests.ut import synthetic
    repo = synthetic.nn_repo(tmp_path / "nn")
    (repo / "empty").mkdir()
    ran = _pytest("--ascgen-ut", str(repo / "empty"), "--ascgen-backend", "builtin", cwd=repo)
    assert ran.returncode == 4 and "no kernel UT rules (AddOpTestCase" in ran.stderr, ran.stdout + ran.stderr
