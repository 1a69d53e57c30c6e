"""Ship the top-level templates/ and runtime/ folders inside the wheel as ascgen/_templates and
ascgen/_runtime, so a non-editable install works from any directory (see ascgen/resources.py)."""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).parent
SHIPPED = {"templates": "_templates", "runtime": "_runtime"}


class build_py_with_resources(build_py):
    def run(self):
        # A build folder left from an older tree would carry its stale modules into this wheel.
        shutil.rmtree(Path(self.build_lib) / "ascgen", ignore_errors=True)
        super().run()
        for src, dst in SHIPPED.items():
            target = Path(self.build_lib) / "ascgen" / dst
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(ROOT / src, target, ignore=shutil.ignore_patterns("__pycache__", "*.o", "*.so"))


setup(cmdclass={"build_py": build_py_with_resources})
