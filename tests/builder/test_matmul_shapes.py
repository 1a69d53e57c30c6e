"""Matmul for any M, N, K (issue 23 point 1): no `multiple_of` needed, K padded to whole fractals in L1 / L0
with Mmad summing only the true K, ragged M / N tiles through the epilogue; equal to the reference and
bit-identical on both backends. A declared promise is checked at run time, and K = 0 is refused there,
each a kernel error naming the dim. The kernels are examples/matmul.py's, the same sources
tests/e2e/test_backends_diff.py builds (cached); the full shape sweep is benchmarks/bench_matmul_shapes.py."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

from ascgen.builder import load_spec
from ascgen.codegen.emit import emit
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning
from ascgen.commands.test import run_case
from ascgen.errors import KernelError
from ascgen.runtime.loader import load
from tests import devkit_tree
from tests.paths import EXAMPLES

PRODUCT = "ascend910b"


def _kernel(name):
    return next(k for k in load_spec(EXAMPLES / "matmul.py") if k.name == name)


def _module(kernel, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        source = emit(kernel, PRODUCT)
    return load(source, PRODUCT, filename=f"{kernel.name}.cpp", backend=backend)


# (M, N, K): one element (m == 1 keeps whole fractals, not GEMV), a ragged K under one slice with ragged M
# and N, and a long ragged K (128 slices, the last of 31) with ragged M and N. bfloat16 and int8 at ragged
# K run on the builtin backend in tests/e2e/test_spec_test_examples.py (ascgen test's shapes) and on both
# in the benchmark; a new devkit compile here would cost more than the suite allows.
@pytest.mark.parametrize("name, shapes", [("matmul_relu", [(1, 1, 1), (40, 48, 100), (33, 17, 4095)])])
def test_ragged_shapes_match_the_reference_and_both_backends_agree(name, shapes):
    devkit_tree.require()
    kernel = _kernel(name)
    builtin, devkit = _module(kernel, "builtin"), _module(kernel, "devkit")
    for shape in shapes:
        case = run_case(builtin, kernel, shape, devkit_module=devkit)
        assert case.ok, f"{name} at {shape}: {case.detail}"


def _launch(module, kernel, m, n, k):
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, (m, k), dtype=np.int8)
    b = rng.integers(-3, 4, (k, n), dtype=np.int8)
    offset = np.zeros(n, np.float32)
    ws, y = np.zeros((m, n), np.int32), np.zeros((m, n), np.float16)
    module.launch(kernel.name, kernel.block_dim, a, b, offset, ws, y, m, n, k, 0.5)


def test_a_broken_promise_and_an_empty_k_are_kernel_errors_naming_the_dim():
    """Builtin backend only: on the devkit backend the library's ascendc_assert is the C assert(), which
    aborts the process (a devkit-backend defect reported with issue 25, not the emitted check's)."""
    kernel = _kernel("matmul_int8")                       # K = k.dim("K", multiple_of=32)
    module = _module(kernel, "builtin")
    _launch(module, kernel, 5, 7, 64)                     # the promise kept: runs
    with pytest.raises(KernelError, match=re.escape("matmul_int8: K = 40 breaks its promise multiple_of=32 (k.dim at "
                                                    "matmul.py:")):
        _launch(module, kernel, 5, 7, 40)
    with pytest.raises(KernelError, match="matmul_int8: K = 0: a Matmul of an empty sum is not offered"):
        _launch(module, kernel, 5, 7, 0)
