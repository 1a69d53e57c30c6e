"""The checker never crashes: mutants of real sources (statements deleted, files truncated, types
undefined, brackets dropped; tests/check/mutate.py) are either analysed or refused with an AscgenError
naming the file, never another exception and never an internal error. The size is bounded for CI; raise
ASCGEN_FUZZ_MUTANTS for a longer local run."""
from __future__ import annotations

import os
import subprocess
import sys
import zlib

import pytest

from ascgen.check import check_file
from ascgen.check.checker import CheckInternalError
from ascgen.errors import AscgenError
from tests import devkit_tree
from tests.check import mutate
from tests.paths import CHECK_CORPUS

PER_SOURCE = int(os.environ.get("ASCGEN_FUZZ_MUTANTS", "6"))
# Own corpus files that cover the statement kinds (switch, loops, TilingKeys, macros, classes, the
# tiling-key template selections).
CORPUS = ["switch_missing_wait.cpp", "tilingkey_missing_set.cpp", "set_in_loop.cpp", "mix_one_side.cpp",
          "gm_write_after_set.cpp", "early_return.cpp", "case_undeclared_type.cpp", "macro_kernel_entry.cpp",
          "functor_early_return.cpp", "namespace_ascendc_helper.cpp", "constexpr_configuration.cpp",
          "method_by_static_type.cpp", "core_side_macros.cpp", "tpl_instances.cpp"]
DEVKIT = ["examples/01_simd_cpp_api/03_basic_api/05_sync_control/task_sync/task_sync.asc",
          "examples/01_simd_cpp_api/04_advanced_api/02_normalization/layernorm/layernorm.asc"]


def _assert_analysed_or_refused(path, label):
    try:
        check_file(path)
    except CheckInternalError as exc:
        pytest.fail(f"{label}: {exc}", pytrace=False)
    except AscgenError as exc:
        assert str(path) in str(exc), f"{label}: the refusal does not name the file: {exc}"


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_mutants(name, tmp_path):
    text = (CHECK_CORPUS / name).read_text()
    for seed, (label, mutant) in enumerate(mutate.mutants(text, seed=zlib.crc32(name.encode()) % 1000, count=PER_SOURCE)):
        path = tmp_path / f"m{seed}_{name}"
        path.write_text(mutant)
        _assert_analysed_or_refused(path, f"{name} {label}")


@pytest.mark.parametrize("name", DEVKIT, ids=lambda n: n.rsplit("/", 1)[-1])
def test_devkit_mutants(name, tmp_path):
    tree = devkit_tree.require()
    text = devkit_tree.read(tree, name)
    for seed, (label, mutant) in enumerate(mutate.mutants(text, seed=7, count=PER_SOURCE)):
        path = tmp_path / f"m{seed}.asc"
        path.write_text(mutant)
        _assert_analysed_or_refused(path, f"{name} {label}")


def test_mutations_change_the_source():
    text = (CHECK_CORPUS / "switch_missing_wait.cpp").read_text()
    changed = [m for _, m in mutate.mutants(text, seed=1, count=10) if m != text]
    assert len(changed) >= 8


def test_internal_error_is_exit_2_naming_the_file(tmp_path):
    """A checker bug on one file: exit 2, the file named on stderr, no traceback; other files still run."""
    bad = tmp_path / "bad.cpp"
    bad.write_text((CHECK_CORPUS / "early_return_ok.cpp").read_text())
    good = tmp_path / "good.cpp"
    good.write_text((CHECK_CORPUS / "early_return.cpp").read_text())
    script = (
        "import sys\n"
        "from ascgen.check import paths\n"
        "real = paths.Interpreter.run\n"
        "def run(self):\n"
        "    if self.kernel.file.endswith('bad.cpp'):\n"
        "        raise IndexError('list index out of range')\n"
        "    return real(self)\n"
        "paths.Interpreter.run = run\n"
        "from ascgen.cli import main\n"
        f"sys.exit(main(['check', {str(bad)!r}, {str(good)!r}]))\n")
    env = {k: v for k, v in os.environ.items() if k != "ASCGEN_DEBUG"}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert str(bad) in proc.stderr and "internal error" in proc.stderr and "IndexError" in proc.stderr
    assert "early_return.cpp" not in proc.stderr and "good.cpp" in proc.stdout     # still checked
