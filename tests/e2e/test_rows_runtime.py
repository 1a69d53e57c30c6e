"""2-D kernels on the emulator, beyond the example cases (tests/e2e/test_spec_test_examples.py): a row
longer than the tile, or (without DataCopyPad) cols that break the kernel's promise, stop the launch with
a typed error naming the kernel and what to do, instead of a silent wrong answer; float16 row reductions
(whose per-repeat partials round to half) equal the reference exactly with and without DataCopyPad."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import ascgen
from ascgen import products
from ascgen.builder import load_spec
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning
from ascgen.errors import KernelError
from ascgen.runtime import load
from tests.paths import EXAMPLES


def _module(spec: str, name: str, product_id: str):
    kernel = next(k for k in load_spec(EXAMPLES / spec) if k.name == name)
    product = products.get(product_id)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        return kernel, load(ascgen.emit(kernel, product), product=product)


def test_a_row_longer_than_the_tile_is_a_kernel_error():
    kernel, module = _module("softmax.py", "softmax", "ascend910_93")
    rows, cols = 3, kernel.tile_length + 1
    x, y = np.ones((rows, cols), np.float16), np.zeros((rows, cols), np.float16)
    with pytest.raises(KernelError, match=r"softmax: a row of 4097 elements is longer than TILE_LENGTH 4096; "
                                          r"build the kernel with a larger tile_length"):
        module.launch("softmax", kernel.block_dim, x, y, rows, cols)


def test_cols_breaking_the_multiple_of_promise_is_a_kernel_error():
    kernel, module = _module("norms.py", "rmsnorm", "ascend310p")
    rows, cols = 4, 40
    x, y = np.ones((rows, cols), np.float16), np.zeros((rows, cols), np.float16)
    gamma = np.ones(cols, np.float32)
    with pytest.raises(KernelError, match=r"rmsnorm: cols = 40 is not a multiple of 16 \(no DataCopyPad"):
        module.launch("rmsnorm", kernel.block_dim, x, gamma, y, rows, cols, 1e-6)


def _half_reductions():
    """Sum, max and min of float16 rows (the sum's partials round to half per 128-element repeat),
    combined into one (rows, cols) output so it also runs without DataCopyPad."""
    from ascgen.builder import Kernel, ReduceMax, ReduceMin, ReduceSum
    k = Kernel("half_reduce", block_dim=3, tile_length=2048)
    x = k.input("x", "float16", shape=("rows", k.dim("cols", multiple_of=16)))
    k.output("y", (x * 0.25 - ReduceMax(x, axis=-1)) + ReduceSum(x, axis=-1) * 0.125 - ReduceMin(x, axis=-1))
    return k


@pytest.mark.parametrize("product_id", ["ascend910b", "ascend310p"])
def test_half_row_reductions_equal_the_reference_with_ragged_rows_and_repeat_tails(product_id):
    from ascgen.commands.test import run_case
    kernel = _half_reductions()
    product = products.get(product_id)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        module = load(ascgen.emit(kernel, product), product=product)
    # one repeat or less, one repeat plus a tail, several repeats with a tail, the longest row; rows that
    # leave the last core and the last tile short
    for shape in [(7, 16), (5, 144), (11, 1040), (4, 2048)]:
        case = run_case(module, kernel, shape)
        assert case.ok and case.max_error == 0.0, f"{shape}: {case.detail} (max error {case.max_error})"


def test_topk_values_cast_to_half_and_reduced_per_row_equal_the_oracle():
    # (rows, k) values of two widths: int32 columns and half gates share K_STRIDE = 16 (32 bytes of half),
    # and a per-row output reduces the k lanes; ascgen test's cases, ragged rows and cols >= k.
    from ascgen.builder import Cast, Exp, Kernel, ReduceMax, ReduceSum, TopK, TopKIndices
    from ascgen.codegen.plan_rows import plan_rows
    from ascgen.commands.test import check_kernel
    k = Kernel("topk_half_gates", tile_length=1024)
    v = TopK(Cast(k.input("logits", "float16", shape=("rows", "cols")), "float32"), 5)
    k.output("indices", TopKIndices(v))
    e = Exp(v - ReduceMax(v))
    k.output("gates", Cast(e / ReduceSum(e), "float16"))
    k.output("top", ReduceMax(v))
    assert plan_rows(k.spec(), "ascend910b").k_stride == 16
    result = check_kernel(k, "ascend910b")
    assert result.ok, [c.detail for c in result.cases if not c.ok]
    assert {c.length[1] for c in result.cases} >= {5, 6}       # the narrowest rows TopK takes
