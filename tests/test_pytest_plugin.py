"""The pytest plugin (issue 21 point 8): its fixtures drive a SuperKernel test here, and a builder spec's
kernels are collected as items with stable ids that `pytest -n 2` spreads over two workers."""
import os
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
