"""Emitted kernels run on the emulator and match the numpy reference for lengths that exercise the core
split (cores with no tile), ragged tails (DataCopyPad, or the aligned remainder window where the product
has no DataCopyPad), double buffering and several tiles per core."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import ascgen
from ascgen import products
from ascgen.builder import load_spec
from ascgen.codegen.plan import plan_kernel
from ascgen.builder.reference import evaluate, random_inputs, tolerance
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning
from tests.paths import REPO

ROOT = REPO
CASES = [("add_relu.py", "add_relu"), ("scale_bias.py", "scale_bias"), ("int_mix.py", "requant_u8")]
PRODUCTS = ("ascend910_93", "ascend310p")     # with and without DataCopyPad


def _lengths(kernel, plan):
    tile, cores, unit = kernel.tile_length, kernel.block_dim, plan.align_elems
    small = [1, 5, unit - 1] if plan.min_length == 1 else []
    return small + [unit, unit + 1, 3 * unit + 7, tile * cores + 1, tile * cores * 2 + 3 * unit + 5]


@pytest.mark.parametrize("product_id", PRODUCTS)
@pytest.mark.parametrize("spec,name", CASES)
def test_emitted_kernel_matches_the_reference(spec, name, product_id):
    _run(spec, name, product_id, None)


def test_prefetch_and_early_set_keep_the_results():
    # the prefetched first tile is consumed by iteration 0 (double buffering, several tiles per core)
    from ascgen.codegen.tasksync import TaskSyncPolicy
    _run("multi_out.py", "multi_out", "ascend910_93",
         TaskSyncPolicy(prefetch_inputs=frozenset({"y"}), set_early=True))


def _run(spec, name, product_id, policy):
    from ascgen.runtime import load

    kernel = next(k for k in load_spec(ROOT / "examples" / spec) if k.name == name)
    product = products.get(product_id)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        module = load(ascgen.emit(kernel, product, policy=policy), product=product)
    plan = plan_kernel(kernel, product)
    for n in _lengths(kernel, plan):
        inputs = random_inputs(kernel, n, seed=n)
        want = evaluate(kernel, inputs)
        got = {p.name: np.full(n, 77, dtype=p.dtype) for p in kernel.outputs}   # poison: every element is written
        args = [inputs[p.name].copy() if p.kind == "input" else got[p.name] if p.kind == "output" else p.default
                for p in kernel.params]
        args.insert(kernel.length_index, n)
        module.launch(kernel.name, kernel.block_dim, *args)
        for out, expected in want.items():
            rtol, atol = tolerance(expected.dtype)
            np.testing.assert_allclose(got[out].astype(np.float64), expected.astype(np.float64), rtol=rtol,
                                       atol=atol, err_msg=f"{name} on {product_id}, totalLength {n}, output {out}")
