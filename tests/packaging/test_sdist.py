"""The sdist carries everything (runtime/, templates/, docs, tests...) and never build outputs, and a
wheel built from it (not from the checkout) holds the shipped C++ and templates."""
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

from tests.paths import REPO

MUST_HAVE = ["LICENSE", "README.md", "pyproject.toml", "setup.py", "MANIFEST.in", ".ci/run",
             "ascgen/py.typed", "ascgen/cli.py", "ascgen/runtime/_autogen/core_cffi.py",
             "runtime/include/kernel_operator.h", "runtime/core/include/ascgen/rt.h", "runtime/core/core_api.h",
             "templates/kernel.cpp.j2", "docs/architecture.md", "examples/add_relu.py",
             "generated/ascend910_93/add_relu.cpp", "tests/paths.py", "benchmarks/bench_runtime.py"]


def _build(args, out):
    run = subprocess.run([sys.executable, "-m", "build", "--no-isolation", *args, "--outdir", str(out), str(REPO)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    demo = REPO / "ascgen-demo"          # a build output the user may have left in the checkout
    planted = not demo.exists()
    if planted:
        demo.mkdir()
        (demo / "__init__.py").write_text("")
    try:
        _build(["--sdist"], out)
    finally:
        if planted:
            shutil.rmtree(demo)
    return next(out.glob("ascgen-*.tar.gz"))


def test_sdist_carries_everything_and_no_build_output(sdist):
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    missing = [n for n in MUST_HAVE if n not in names]
    assert not missing, f"missing from the sdist: {missing}"
    leaked = sorted(n for n in names if n.startswith("ascgen-demo") or "__pycache__" in n
                    or n.endswith((".so", ".o", ".pyc")))
    assert not leaked, f"build outputs in the sdist: {leaked[:10]}"


def test_wheel_from_the_sdist_ships_runtime_and_templates(sdist, tmp_path):
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    source = next(tmp_path.glob("ascgen-*"))
    out = tmp_path / "wheel"
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(out), str(source)],
                   check=True, capture_output=True, timeout=600)
    with zipfile.ZipFile(next(out.glob("ascgen-*.whl"))) as whl:
        names = set(whl.namelist())
        entry_points = next(whl.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    # pytest finds the plugin by this entry point, under the module's own name (docs/pytest.md)
    assert "[pytest11]\nascgen.pytest_plugin = ascgen.pytest_plugin" in entry_points, entry_points
    for shipped in ("ascgen/_runtime/include/kernel_operator.h", "ascgen/_templates/kernel.cpp.j2",
                    "ascgen/py.typed", "ascgen/check/paths.py", "ascgen/pytest_plugin.py"):
        assert shipped in names
    assert not any(n.startswith("ascgen-demo") or n.startswith("ascgen/ascgen-demo") for n in names)
