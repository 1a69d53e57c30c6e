"""An op's kernel built from Python as its kernel UT builds it (ascgen/ut/kernel.py), on a synthetic
repository (builtin backend: fast to build). The production kernel in a SuperKernel is
tests/superkernel/test_production_kernel.py."""
import numpy as np
import pytest

from ascgen.errors import SpecError
from ascgen.ut import kernel
from tests.ut import synthetic


def test_kernel_module_builds_the_kernel_with_the_ut_plan(tmp_path):
    """add_one.cpp uses AddOneTilingData, declared only in the forced add_one_tiling_def.h, and ADD_ONE_STEP,
    reached only through the build's copy (tbe/ascendc/add_one/../inc/shared_const.h): a load() of the
    kernel file alone does not compile; with the plan it runs."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    op = repo / "cat" / "add_one"
    assert kernel.kernel_source(kernel.ut_plan(op, "ascend910b")) == op / "op_kernel" / "add_one.cpp"
    mod = kernel.kernel_module(op, "ascend910b", backend="builtin")
    x = np.arange(256, dtype=np.float32)
    y = np.zeros_like(x)
    tiling = np.array([(x.size,)], dtype=[("n", "<u4")])
    mod.launch("add_one", 1, x, y, tiling)
    assert np.array_equal(y, x + 1)


def test_kernel_module_names_the_folder_and_what_is_missing(tmp_path):
    repo = synthetic.nn_repo(tmp_path / "nn")
    with pytest.raises(SpecError, match=r"common: no AddOpTestCase\(\.\.\.\) rule for this op folder"):
        kernel.ut_plan(repo / "common", "ascend910b")
    with pytest.raises(SpecError, match=r"add_one: the kernel UT cannot be built for ascend950: its rules "
                                        r"name the socs ascend910B1, none of them ascend950"):
        kernel.ut_plan(repo / "cat" / "add_one", "ascend950")
