"""The emitted kernels run on both backends with identical results (docs/builder.md "Both backends"): one
kernel of each kind from examples/ on ascend910b - a 1-D kernel, a row kernel with all three reductions
and per-row outputs, softmax, the MIX Matmul with bias, relu and scale, and the int8 Matmul with its dequantising epilogue - on the builtin emulator and
on the devkit backend with the same inputs, at shapes that take every branch of the emitted row
reduction (a row shorter than one repeat, exactly one, several with a tail). Each backend must match the
reference and the two must write the same bits. The whole set of examples runs in
benchmarks/bench_backends.py; each devkit compile is cached, so this file keeps to five kernels."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from ascgen import products
from ascgen.builder import load_spec
from ascgen.codegen.emit import emit
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning
from ascgen.commands.test import backend_difference, run_case
from ascgen.runtime.loader import load
from tests import devkit_tree
from tests.paths import EXAMPLES

PRODUCT = "ascend910b"
CASES = [("add_relu.py", "add_relu", [13, 2055, 16417]),
         ("row_stats.py", "row_stats", [(4, 13), (3, 64), (11, 2048), (8, 683)]),
         ("softmax.py", "softmax", [(7, 21), (5, 130), (17, 4096)]),
         ("matmul.py", "matmul_relu", [(61, 69, 48), (129, 33, 96)]),
         ("matmul.py", "matmul_int8", [(29, 69, 96)])]


@pytest.mark.parametrize("spec, name, shapes", CASES, ids=[c[1] for c in CASES])
def test_both_backends_write_the_same_bits(spec, name, shapes):
    devkit_tree.require()
    kernel = next(k for k in load_spec(EXAMPLES / spec) if k.name == name)
    product = products.get(PRODUCT)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        source = emit(kernel, product)
    builtin = load(source, product, filename=f"{name}.cpp", backend="builtin")
    devkit = load(source, product, filename=f"{name}.cpp", backend="devkit")
    for shape in shapes:
        case = run_case(builtin, kernel, shape, devkit_module=devkit)
        assert case.ok, f"{name} at {shape}: {case.detail}"


def test_a_differing_element_is_named_with_both_values():
    a = np.float32([1.0, np.nan, 3.0])
    assert backend_difference("y", a, a.copy()) == ""                     # NaN bits equal: the same
    b = np.float32([1.0, np.nan, np.nextafter(np.float32(3.0), np.float32(4.0))])
    text = backend_difference("y", a, b)
    assert text.startswith("y: builtin and devkit differ in 1 of 3 elements") and "first at [2]" in text
    assert backend_difference("z", np.zeros(0, np.float16), np.zeros(0, np.float16)) == ""
    assert backend_difference("z", np.float16([0.0]), np.float16([-0.0])) != ""   # signed zeros differ in bits
