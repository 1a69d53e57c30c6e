"""SuperKernel API input checks: clear errors naming what is wrong and a hint, never a crash."""

import numpy as np
import pytest

from ascgen.errors import SpecError, UnsupportedProductError
from ascgen.runtime import SuperKernel, load
from tests.paths import SK_BUGS

BUGS = SK_BUGS


@pytest.fixture(scope="module")
def good():
    return load(BUGS / "good.cpp", product="ascend910_93")


def test_unknown_option_is_an_error():
    with pytest.raises(SpecError, match="early-strat"):
        SuperKernel("ascend910_93", options="early-strat=1")


def test_duplicate_option_is_an_error():
    with pytest.raises(SpecError, match="early-start"):
        SuperKernel("ascend910_93", options="early-start=1:early-start=0")


def test_unknown_product_is_an_error():
    with pytest.raises(UnsupportedProductError, match="Known products"):
        SuperKernel("ascend999")


def test_module_of_another_product_is_an_error(good):
    x = np.zeros(64, np.float32)
    with pytest.raises(SpecError, match="built for ascend910_93.*product='ascend950'"):
        SuperKernel("ascend950").add(good, "scale", 1, x, x, np.uint32(64))


def test_not_a_module_is_an_error():
    with pytest.raises(SpecError, match="takes a Module"):
        SuperKernel("ascend910_93").add("good.cpp", "scale", 1)


def test_run_without_tasks_is_an_error():
    with pytest.raises(SpecError, match="no task added"):
        SuperKernel("ascend910_93").run()


def test_unknown_kernel_is_an_error(good):
    with pytest.raises(SpecError, match='no kernel "scael"'):
        SuperKernel("ascend910_93").add(good, "scael", 8)


def test_report_str_lists_everything(good):
    n = 8 * 256
    x, y, z = np.ones(n, np.float32), np.zeros(n, np.float32), np.zeros(n, np.float32)
    report = SuperKernel("ascend910_93").add(good, "scale", 8, x, y, np.uint32(n)).add(
        good, "shift", 8, y, z, np.uint32(n)).run()
    text = str(report)
    assert text.startswith("SuperKernel on ascend910_93 (early-start=1): 2 tasks, 0 race(s)")
    assert "[sk-first-task-wait]" in text and "modeled time" in text
    np.testing.assert_array_equal(z, 3.0)


def test_option_without_equals_warns_at_the_callers_line():
    from ascgen.runtime.sk_options import SkOptionWarning
    with pytest.warns(SkOptionWarning, match="'bogus' has no '='") as record:
        SuperKernel("ascend910_93", options="early-start=1:bogus")
    assert record[0].filename == __file__
