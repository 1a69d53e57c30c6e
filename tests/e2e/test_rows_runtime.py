"""2-D kernels on the emulator, beyond the example cases (tests/e2e/test_spec_test_examples.py): a row
longer than the tile, or (without DataCopyPad) cols that break the kernel's promise, stop the launch with
a typed error naming the kernel and what to do, instead of a silent wrong answer."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import ascgen
from ascgen import products
from ascgen.builder import load_spec
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning
from ascgen.errors import KernelError
from tests.paths import EXAMPLES


def _module(spec: str, name: str, product_id: str):
    from ascgen.runtime import load
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
