"""The package ships `py.typed`, so its annotations are a promise to users' type checkers: `mypy -p ascgen`
must find nothing (pyproject.toml [tool.mypy] holds the settings; cffi and libclang ship no stubs)."""
import subprocess
import sys

from tests.paths import REPO


def test_mypy_finds_nothing_in_the_package(tmp_path):
    ran = subprocess.run([sys.executable, "-m", "mypy", "-p", "ascgen", "--cache-dir", str(tmp_path / "cache")],
                         cwd=REPO, capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]
