"""An op's kernel built from Python as its kernel UT builds it (ascgen/ut/kernel.py), on a synthetic
repository (builtin backend: fast to build). The production kernel in a SuperKernel is
tests/superkernel/test_production_kernel.py."""
import numpy as np
import pytest

from ascgen.errors import KernelError, SpecError
from ascgen.ut import kernel
from tests.ut import synthetic


def test_kernel_module_builds_the_kernel_with_the_ut_plan(tmp_path):
    """add_one.cpp uses AddOneTilingData, declared only in the forced add_one_tiling_def.h, and ADD_ONE_STEP,
    reached only through the build's copy (tbe/ascendc/add_one/../inc/shared_const.h): a load() of the
    kernel file alone does not compile; with the plan it runs."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    op = repo / "cat" / "add_one"
    source = kernel.kernel_source(kernel.ut_plan(op, "ascend910b"))
    assert source.parts[-4:] == ("tbe", "ascendc", "add_one", "add_one.cpp")       # ops-nn compiles the copy
    assert source.resolve() == (op / "op_kernel" / "add_one.cpp").resolve()
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


def test_the_kernel_is_compiled_from_the_build_copy_and_reported_by_its_own_path(tmp_path):
    """ops-nn's UT compiles `${ASCEND_KERNEL_SRC_DST}/<op>/<op>.cpp`, the copy beside its dependency ops' kernels:
    ops-nn batch_norm's arch35/batch_norm_base.h includes `../../norm_common/reduce_common_regbase.h`, which
    resolves only there (compiled from the op's own folder, 14 cases of 6 ops stopped at the missing header).
    Reports name the original files (-ffile-prefix-map), not the copy."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    op = repo / "cat" / "add_one"
    (repo / "cat" / "dep_one" / "op_kernel").mkdir(parents=True)
    (repo / "cat" / "dep_one" / "op_kernel" / "dep_step.h").write_text("#pragma once\n#define DEP_STEP 2.0f\n")
    (op / "op_kernel" / "arch").mkdir()
    (op / "op_kernel" / "arch" / "step.h").write_text('#pragma once\n#include "../../dep_one/dep_step.h"\n')
    source = op / "op_kernel" / "add_one.cpp"
    source.write_text(source.read_text().replace('#include "../inc/shared_const.h"', '#include "arch/step.h"')
                      .replace("ADD_ONE_STEP", "DEP_STEP"))
    rule = op / "tests" / "ut" / "op_kernel" / "CMakeLists.txt"
    rule.write_text(rule.read_text().replace('"-DDTYPE_X=float")', '"-DDTYPE_X=float" dep_one)'))
    mod = kernel.kernel_module(op, "ascend910b", backend="builtin")
    x = np.arange(256, dtype=np.float32)
    y = np.zeros_like(x)
    mod.launch("add_one", 1, x, y, np.array([(x.size,)], dtype=[("n", "<u4")]))
    assert np.array_equal(y, x + 2)
    with pytest.raises(KernelError) as fault:
        mod.launch("add_one_oob", 1, x, x, x)
    assert f"{source}:" in str(fault.value) and "tbe/ascendc" not in str(fault.value)
