"""The decoder-layer recipes (ascgen/builder/recipes.py) on the emulator against their numpy references
written from the textbook formulas, at ragged shapes (builtin backend, ascend910b; both backends and the
kernel-order oracle: `ascgen test examples/decoder/decoder.py --backend both`)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from ascgen.builder import recipes
from ascgen.codegen.emit import emit
from ascgen.commands.test import _launch
from ascgen.runtime.loader import load

PRODUCT = "ascend910b"
rng = np.random.default_rng(7)


def _run(kernel, dims, inputs, scalars=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = load(emit(kernel, PRODUCT), PRODUCT, filename=f"{kernel.name}.cpp")
    size = dict(zip(kernel.dims, dims))
    outputs = {p.name: np.full(tuple(size[d] for d in p.shape) if p.shape else dims, 77, p.dtype)
               for p in kernel.outputs}
    _launch(module, kernel, dims, inputs, scalars or {}, outputs)
    return outputs


def _half(*shape):
    return rng.uniform(-2, 2, shape).astype(np.float16)


def test_add_rmsnorm_writes_the_sum_and_its_norm():
    x, res, gamma = _half(5, 37), _half(5, 37), rng.uniform(0.5, 1.5, 37).astype(np.float32)
    got = _run(recipes.add_rmsnorm("add_rmsnorm_t"), (5, 37), {"x": x, "residual": res, "gamma": gamma}, {"eps": 1e-6})
    want = recipes.add_rmsnorm_reference(x, res, gamma, 1e-6)
    np.testing.assert_array_equal(got["h"], want["h"])
    np.testing.assert_allclose(got["y"].astype(np.float32), want["y"].astype(np.float32), rtol=2e-3, atol=2e-3)


def test_swiglu():
    gate, up = _half(1000), _half(1000)
    got = _run(recipes.swiglu("swiglu_t"), (1000,), {"gate": gate, "up": up})
    want = recipes.swiglu_reference(gate, up)
    np.testing.assert_allclose(got["y"].astype(np.float32), want["y"].astype(np.float32), rtol=2e-3, atol=1e-3)


def test_dynamic_quant_values_and_scales_per_token_with_a_zero_row():
    x = _half(6, 45)
    x[2] = 0
    got = _run(recipes.dynamic_quant("dynamic_quant_t"), (6, 45), {"x": x})
    want = recipes.dynamic_quant_reference(x)
    np.testing.assert_allclose(got["scales"], want["scales"], rtol=1e-6)
    diff = np.abs(got["values"].astype(np.int32) - want["values"])
    assert diff.max() <= 1 and (diff == 0).mean() > 0.99, diff      # float32 x * 127 / amax vs float64
    assert np.all(got["values"][2] == 0) and np.abs(got["values"]).max() == 127


def test_matmul_dequant_per_channel_scale_and_bias():
    m, n, k = 20, 24, 70
    a = rng.integers(-20, 20, (m, k)).astype(np.int8)
    b = rng.integers(-20, 20, (k, n)).astype(np.int8)
    scale = rng.uniform(1e-3, 1e-2, n).astype(np.float32)
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    got = _run(recipes.matmul_dequant("matmul_dequant_t"), (m, n, k), {"a": a, "b": b, "scale": scale, "bias": bias})
    want = recipes.matmul_dequant_reference(a, b, scale, bias)
    np.testing.assert_array_equal(got["workspace"], a.astype(np.int32) @ b.astype(np.int32))
    np.testing.assert_allclose(got["y"].astype(np.float32), want["y"].astype(np.float32), rtol=2e-3, atol=1e-3)
