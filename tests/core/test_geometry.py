"""Launch geometry: the counts geometry.py decides and what GetBlockIdx/GetBlockNum/GetSubBlockIdx/
GetTaskRatio return on every emulated core, for every kernel type and product family."""

import numpy as np
import pytest

from ascgen import products
from ascgen.errors import SpecError, UnsupportedProductError
from ascgen.runtime import geometry
from ascgen.runtime.sk_options import SkOptions

from tests.core import harness as h


@pytest.fixture(scope="module")
def k():
    return h.Kernels("basic.cpp")


SEPARATED = ["ascend910_93", "ascend910b", "ascend950"]


@pytest.mark.parametrize("product", SEPARATED)
@pytest.mark.parametrize("ktype,aic,aiv,ratio", [("aiv", 0, 3, 0), ("aic", 3, 0, 0), ("mix_1_1", 3, 3, 1),
                                                  ("mix_1_2", 3, 6, 2)])
def test_plain_launch_geometry_on_separated_products(k, product, ktype, aic, aiv, ratio):
    out = np.zeros((2, 64, 6), np.int64)
    r = h.run([k.task("k_geometry", 3, out, kernel_type=ktype)], product=product)
    assert (r.geometry["aic"], r.geometry["aiv"], r.geometry["ratio"]) == (aic, aiv, ratio)
    arch = products.get(product).npu_arch
    for t, n in ((0, aic), (1, aiv)):
        assert (out[t, :n, 0] == 1).all() and (out[t, n:, 0] == 0).all()   # each block index exactly once
        if n:
            assert (out[t, :n, 1] == 3).all()                                # GetBlockNum() = B on both types
            assert (out[t, :n, 4] == arch).all() and (out[t, :n, 5] == 0).all()
    if ktype == "mix_1_2":
        assert list(out[1, :6, 2]) == [0, 1, 0, 1, 0, 1] and (out[1, :6, 3] == 2).all()
        assert (out[0, :3, 3] == 1).all()
    else:
        assert (out[:, :, 2] == 0).all() and (out[out[:, :, 0] == 1][:, 3] == 1).all()


@pytest.mark.parametrize("product", ["ascend310p", "ascend910", "ascend310b"])
@pytest.mark.parametrize("ktype", ["aiv", "mix_1_2"])
def test_coupled_products_have_one_core_type(k, product, ktype):
    out = np.zeros((2, 64, 6), np.int64)
    r = h.run([k.task("k_geometry", 5, out, kernel_type=ktype)], product=product)
    assert r.geometry["kind"] == "coupled" and r.geometry["aiv"] == 5 and r.geometry["aic"] == 0
    assert (out[1, :5, 0] == 1).all() and (out[0, :, 0] == 0).all()
    assert (out[1, :5, 2] == 0).all() and (out[1, :5, 3] == 1).all()        # no sub-blocks on coupled cores
    assert (out[1, :5, 5] == 1).all()                                        # is_coupled()


def test_vector_only_product_rejects_cube_kernels():
    p = products.get("ascend310p_vec")
    assert geometry.launch(p, "aiv", 4).aiv == 4
    with pytest.raises(UnsupportedProductError, match="vector cores only"):
        geometry.launch(p, "aic", 4)


@pytest.mark.parametrize("tasks,expect", [
    ([("aiv", 8), ("aiv", 4)], ("aiv", 0, 8, 0)),
    ([("aic", 2), ("aic", 5)], ("aic", 5, 0, 0)),
    ([("aic", 8), ("aiv", 6)], ("mix_1_1", 8, 8, 1)),                    # max_aiv <= max_aic -> 1:1
    ([("aic", 2), ("aiv", 9)], ("mix_1_2", 5, 10, 2)),                   # ceil(9 / 2) = 5 groups
    ([("mix_1_2", 3), ("aic", 4)], ("mix_1_2", 4, 8, 2)),                # N_c = max(4, ceil(6 / 2))
    ([("mix_1_1", 4), ("aiv", 2)], ("mix_1_1", 4, 4, 1)),
])
def test_superkernel_geometry_follows_the_sk_compiler(tasks, expect):
    g = geometry.superkernel(products.get("ascend910_93"), tasks)
    assert (g.kind, g.aic, g.aiv, g.ratio) == expect


def test_debug_core_counts_force_the_launch_size():
    p = products.get("ascend910_93")
    opts = SkOptions.parse("debug-aic-num=6:debug-aiv-num=12", p)
    g = geometry.superkernel(p, [("aiv", 4)], opts)
    assert (g.kind, g.aic, g.aiv) == ("mix_1_2", 6, 12)
    with pytest.raises(SpecError, match="debug-aiv-num=2 is below"):
        geometry.superkernel(p, [("aiv", 4)], SkOptions.parse("debug-aiv-num=2", p))


def test_superkernel_needs_a_product_with_one():
    with pytest.raises(UnsupportedProductError, match="no SuperKernel"):
        geometry.superkernel(products.get("ascend310p"), [("aiv", 2)])


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_bad_block_dim_is_a_spec_error(bad):
    with pytest.raises(SpecError, match="block_dim"):
        geometry.launch(products.get("ascend910b"), "aiv", bad)


def test_too_many_cores_is_refused_before_starting_threads():
    with pytest.raises(SpecError, match="limit"):
        geometry.launch(products.get("ascend910b"), "mix_1_2", 3000)


def test_superkernel_tasks_see_their_own_block_num(k):
    """Inside task k GetBlockNum() is B_k and only B_k cores run it; idle cores still take part."""
    a, b = np.zeros((2, 64, 6), np.int64), np.zeros((2, 64, 6), np.int64)
    r = h.run([k.task("k_geometry", 6, a), k.task("k_geometry", 2, b)], options="early-start=1")
    assert r.geometry["aiv"] == 6
    assert (a[1, :6, 0] == 1).all() and (a[1, :6, 1] == 6).all()
    assert (b[1, :2, 0] == 1).all() and (b[1, 2:, 0] == 0).all() and (b[1, :2, 1] == 2).all()
