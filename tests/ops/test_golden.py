"""`ascgen ops test`: an op run on random inputs (InferShape for the outputs) against its repository's golden
(tests/assets/golden.py, run in its own Python process), per shape and output. ops-math is_inf's golden is
numpy's isinf; a copy of the op folder with an edited golden must fail, and a golden that cannot run is a
clear error, not a kernel failure."""
from __future__ import annotations

import fcntl
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

from ascgen import cli
from ascgen.ops import compare, golden
from tests.ops.test_host_tiling import _cann

IS_INF = "ops-math/math/is_inf"
GOLDEN_HEAD = "import numpy as np\n__golden__ = {'kernel': {'is_inf': 'is_inf_golden'}}\n\n"


def _ops_test(capsys, op_dir, *shapes, extra=()):
    code = cli.main(["ops", "test", str(op_dir), "--product", "ascend910b", "--shapes", *shapes, *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_is_inf_matches_its_golden_on_a_ragged_shape_too(capsys):
    code, out, _ = _ops_test(capsys, _cann() / IS_INF, "8x256", "37x129")
    assert code == 0, out
    assert "IsInf 37x129 y (bool): max abs 0, max rel 0, 0/4773 beyond exact - ok" in out
    assert "2 of 2 shapes match the golden" in out


@pytest.fixture(scope="module")
def is_inf_copy() -> Iterator[Path]:
    """ops-math with is_inf a real copy (the rest linked): the op folder a user would edit. Its place is the
    same in every run and the copy keeps the files' times, so the builds keyed by path and time (the op's
    runners, its kernel) are the cache's from the run before, not 40 s of compiling; a lock keeps two test
    sessions from editing its golden at once."""
    base = Path(tempfile.gettempdir()) / f"ascgen-test-op-copy-{os.getuid()}"
    base.mkdir(exist_ok=True)
    with open(base / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        source = _cann() / "ops-math"
        root = base / "ops-math"
        shutil.rmtree(root, ignore_errors=True)
        (root / "math").mkdir(parents=True)
        for entry in source.iterdir():
            if entry.name != "math":
                os.symlink(entry, root / entry.name)
        for entry in (source / "math").iterdir():
            if entry.name != "is_inf":
                os.symlink(entry, root / "math" / entry.name)
        shutil.copytree(source / "math" / "is_inf", root / "math" / "is_inf", symlinks=True)   # copy2: times kept
        yield root / "math" / "is_inf"


def _golden(op_dir: Path, body: str) -> None:
    (op_dir / golden.GOLDEN).write_text(GOLDEN_HEAD + body)


def test_a_wrong_golden_fails_naming_the_output_and_the_error(capsys, is_inf_copy):
    _golden(is_inf_copy, "def is_inf_golden(x, **kwargs):\n    y = np.isinf(x)\n    y.flat[::7] ^= True\n    return y\n")
    code, out, _ = _ops_test(capsys, is_inf_copy, "37x129")
    assert code == 1
    assert "IsInf 37x129 y (bool): max abs 1, max rel" in out
    assert f"{len(range(0, 37 * 129, 7))}/4773 beyond exact - MISMATCH" in out
    assert "0 of 1 shapes match the golden" in out


def test_the_golden_gets_the_documented_keyword_arguments(capsys, is_inf_copy):
    _golden(is_inf_copy, "def is_inf_golden(x, **kw):\n"
            "    assert kw['input_dtypes'] == ['float16'] and kw['output_dtypes'] == ['bool'], kw\n"
            "    assert kw['input_ori_shapes'] == [[5, 33]] and kw['output_ori_shapes'] == [[5, 33]], kw\n"
            "    assert kw['input_formats'] == ['ND'] and kw['short_soc_version'] == 'Ascend910B', kw\n"
            "    assert kw['testcase_name'] and kw['full_soc_version'].startswith('Ascend910B'), kw\n"
            "    return np.isinf(x)\n")
    code, out, err = _ops_test(capsys, is_inf_copy, "5x33")
    assert code == 0, out + err


def test_a_spec_class_golden_is_found_too(capsys, is_inf_copy):
    (is_inf_copy / golden.GOLDEN).write_text(
        "import numpy as np\n__spec__ = {'is_inf': 'IsInfSpec'}\n\n"
        "class IsInfSpec:\n    def golden(x, **kwargs):\n        return [np.isinf(x)]\n\n"
        "    tolerance = {'bool': {'standard': 'binary_equal'}}\n")
    code, out, err = _ops_test(capsys, is_inf_copy, "5x33")
    assert code == 0 and "IsInf 5x33 y (bool): max abs 0, max rel 0, 0/165 beyond exact - ok" in out, out + err


def test_a_raising_golden_is_its_own_error_not_a_kernel_failure(capsys, is_inf_copy):
    _golden(is_inf_copy, "def is_inf_golden(x, **kwargs):\n    raise ValueError('golden broke here')\n")
    code, _, err = _ops_test(capsys, is_inf_copy, "8x256")
    assert code == 2
    assert "raised an exception (not a kernel failure)" in err and "ValueError: golden broke here" in err


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="torch is installed here")
def test_a_golden_needing_torch_says_so(capsys, is_inf_copy):
    _golden(is_inf_copy, "def is_inf_golden(x, **kwargs):\n    import torch\n    return torch.isinf(torch.from_numpy(x))\n")
    code, _, err = _ops_test(capsys, is_inf_copy, "8x256")
    assert code == 2
    assert "needs the Python module 'torch'" in err and "--python" in err


def test_no_golden_is_said_before_anything_runs(capsys, is_inf_copy):
    (is_inf_copy / golden.GOLDEN).unlink()
    code, _, err = _ops_test(capsys, is_inf_copy, "8x256")
    assert code == 2 and "is_inf: no golden to compare with" in err


def test_bad_shapes_and_attributes_are_named(capsys):
    code, _, err = _ops_test(capsys, _cann() / IS_INF, "8by256")
    assert code == 2 and "'8by256' is not a shape" in err
    code, _, err = _ops_test(capsys, _cann() / IS_INF, "8x256", extra=("--attr", "eps=1"))
    assert code == 2 and "--attr eps=1: give name=value with one of IsInf's attributes: none" in err


def test_compare_counts_mismatches_under_the_dtype_tolerance():
    gold = np.array([1.0, 2.0, np.nan, np.inf], np.float32)
    assert compare.compare(gold.astype(np.float16), gold).ok
    off = np.array([1.0, 2.01, np.nan, np.inf], np.float16)      # 5e-3 relative: beyond float16's 1e-3
    c = compare.compare(off, gold)
    assert (c.mismatches, c.tolerance) == (1, 1e-3) and c.max_abs == float(np.float16(2.01)) - 2.0
    assert compare.compare(np.array([np.nan], np.float32), np.array([1.0], np.float32)).mismatches == 1
    assert compare.tolerance_of(np.float16, {"float16": "binary_equal"}) == 0.0
    assert compare.compare(np.zeros(3, np.float32), np.zeros(4, np.float32)).note == "shape (3,), the golden's (4,)"


def test_dtype_picks_the_definitions_combination():
    from ascgen import ops
    from ascgen.errors import SpecError
    from ascgen.ops import op_test
    op = ops.load(_cann() / "ops-nn/norm/rms_norm", product="ascend910b")      # x {f16, bf16, f16, ...}, gamma {f32, f32, f16, ...}
    assert op_test.input_dtypes(op, None) == op_test.input_dtypes(op, "float16") == ["DT_FLOAT16", "DT_FLOAT"]
    assert op_test.input_dtypes(op, "float16,float16") == ["DT_FLOAT16", "DT_FLOAT16"]
    with pytest.raises(SpecError, match=r"--dtype int8: no combination of RmsNorm's definition on ascend910b"):
        op_test.input_dtypes(op, "int8")
