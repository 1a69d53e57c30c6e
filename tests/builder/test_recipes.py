"""The decoder-layer recipes (ascgen/builder/recipes.py) on the emulator against their numpy references
written from the textbook formulas, at ragged shapes (builtin backend, ascend910b; both backends and the
kernel-order oracle: `ascgen test examples/decoder/decoder.py --backend both`)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from ascgen.builder import recipes
from ascgen.builder.shapes import extent
from ascgen.codegen.emit import emit
from ascgen.commands.test import _launch
from ascgen.errors import KernelError
from ascgen.runtime.loader import load

PRODUCT = "ascend910b"
rng = np.random.default_rng(7)


def _run(kernel, dims, inputs, scalars=None, backend="builtin"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = load(emit(kernel, PRODUCT), PRODUCT, filename=f"{kernel.name}.cpp", backend=backend)
    size = dict(zip(kernel.dims, dims))
    outputs = {p.name: np.full(tuple(extent(d, size) for d in p.shape) if p.shape else dims, 77, p.dtype)
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


def _rope_tables(rows, cols, base=10000.0):
    """cos / sin of the tokens' positions (0..rows-1) per frequency, each half of a row alike (the
    half-split layout of GPT-NeoX / Llama)."""
    inv_freq = base ** (-np.arange(0, cols, 2) / cols)
    angles = np.outer(np.arange(rows), inv_freq)
    full = np.concatenate([angles, angles], axis=-1)
    return np.cos(full).astype(np.float16), np.sin(full).astype(np.float16)


def test_rope_rotates_each_token_by_its_position():
    rows, cols = 7, 64                     # ragged token count over 8 cores, a head_dim of 64
    x = _half(rows, cols)
    cos, sin = _rope_tables(rows, cols)
    got = _run(recipes.rope("rope_t"), (rows, cols), {"x": x, "cos_table": cos, "sin_table": sin})
    want = recipes.rope_reference(x, cos, sin)
    np.testing.assert_allclose(got["y"].astype(np.float32), want["y"].astype(np.float32), rtol=2e-3, atol=2e-3)
    np.testing.assert_array_equal(got["y"][0], x[0])      # position 0: cos 1, sin 0, the token unchanged


def test_rotate_half_keeps_every_bit_of_both_halves_and_nan_stays_nan():
    from ascgen.builder import Kernel, RotateHalf
    k = Kernel("rotate_t", block_dim=2, tile_length=1024)
    k.output("y", RotateHalf(k.input("x", "float16", shape=("rows", k.dim("cols", multiple_of=32)))))
    x = _half(3, 64)
    x[0, :4] = [-0.0, 0.0, np.inf, -np.inf]
    x[1, 40:42] = [np.nan, -0.0]
    got = _run(k, (3, 64), {"x": x})["y"]
    want = np.concatenate([-x[:, 32:], x[:, :32]], axis=-1)
    nan = np.isnan(want)
    assert nan.sum() == 1 and np.isnan(got[nan]).all()    # IEEE 754 leaves the sign of NaN * -1 open
    np.testing.assert_array_equal(got[~nan].view(np.uint16), want[~nan].view(np.uint16))   # -0, inf: every bit


def test_rotate_half_needs_the_head_dim_promise():
    from ascgen.builder import Kernel, RotateHalf
    from ascgen.errors import SpecError
    k = Kernel("rotate_p", block_dim=2, tile_length=1024)
    k.output("y", RotateHalf(k.input("x", "float32", shape=("rows", "cols"))))
    with pytest.raises(SpecError, match=r"RotateHalf at test_recipes.py:\d+: .*multiple_of=16"):
        emit(k, PRODUCT)


def _gptj_tables(rows, cols, base=10000.0):
    """cos / sin of the tokens' positions per frequency, each pair's angle at both of its lanes (the
    interleaved layout `rope_interleaved` takes)."""
    angles = np.outer(np.arange(rows), base ** (-np.arange(0, cols, 2) / cols))
    full = np.repeat(angles, 2, axis=-1)
    return np.cos(full).astype(np.float16), np.sin(full).astype(np.float16)


def test_rope_interleaved_rotates_each_pair_by_its_position():
    rows, cols = 7, 38                     # ragged tokens over 8 cores; 38 halfs: rows padded in UB to 48
    x = _half(rows, cols)
    cos, sin = _gptj_tables(rows, cols)
    got = _run(recipes.rope_interleaved("rope_interleaved_t"), (rows, cols), {"x": x, "cos_table": cos, "sin_table": sin})
    want = recipes.rope_interleaved_reference(x, cos, sin)
    # the reference against the pair as a complex number turned by its angle: (x0 + i x1) * (cos + i sin)
    turned = (x[:, 0::2].astype(np.complex128) + 1j * x[:, 1::2]) * (cos[:, 0::2] + 1j * sin[:, 0::2].astype(np.float64))
    np.testing.assert_allclose(want["y"][:, 0::2], turned.real.astype(np.float16), rtol=2e-3, atol=2e-3)
    np.testing.assert_allclose(want["y"][:, 1::2], turned.imag.astype(np.float16), rtol=2e-3, atol=2e-3)
    np.testing.assert_allclose(got["y"].astype(np.float32), want["y"].astype(np.float32), rtol=2e-3, atol=2e-3)
    np.testing.assert_array_equal(got["y"][0], x[0])      # position 0: cos 1, sin 0, the token unchanged


def test_rotate_pairs_keeps_every_bit_of_each_pair_and_nan_stays_nan():
    from ascgen.builder import Kernel, RotatePairs
    k = Kernel("pairs_t", block_dim=2, tile_length=1024)
    k.output("y", RotatePairs(k.input("x", "float16", shape=("rows", k.dim("cols", multiple_of=2)))))
    x = _half(3, 22)                       # 22 halfs: each row padded in UB, no pair crosses into the padding
    x[0, :4] = [-0.0, 0.0, np.inf, -np.inf]
    x[1, 20:22] = [np.nan, -0.0]
    got = _run(k, (3, 22), {"x": x})["y"]
    want = np.empty_like(x)
    want[:, 0::2], want[:, 1::2] = -x[:, 1::2], x[:, 0::2]
    nan = np.isnan(want)
    assert nan.sum() == 1 and np.isnan(got[nan]).all()    # IEEE 754 leaves the sign of NaN * -1 open
    np.testing.assert_array_equal(got[~nan].view(np.uint16), want[~nan].view(np.uint16))   # -0, inf: every bit


def test_rotate_pairs_needs_whole_pairs():
    from ascgen.builder import Kernel, RotatePairs
    from ascgen.errors import SpecError
    k = Kernel("pairs_p", block_dim=2, tile_length=1024)
    k.output("y", RotatePairs(k.input("x", "float32", shape=("rows", "cols"))))
    with pytest.raises(SpecError, match=r"RotatePairs at test_recipes.py:\d+: each row must hold whole .*multiple_of=2"):
        emit(k, PRODUCT)


def test_rotate_pairs_is_2d_only():
    from ascgen.builder import Kernel, RotatePairs
    from ascgen.errors import SpecError
    k = Kernel("pairs_1d")
    with pytest.raises(SpecError, match=r"RotatePairs at test_recipes.py:\d+: rotates within each row"):
        RotatePairs(k.input("x", "float32"))


def test_rotate_pairs_odd_cols_is_a_broken_promise_caught_at_run_time():
    x = _half(2, 7)
    with pytest.raises(Exception, match=r"RotatePairs needs cols a multiple of 2"):
        _run(recipes.rope_interleaved("rope_interleaved_odd"), (2, 7), {"x": x, "cos_table": x, "sin_table": x})


# ---- top-k gating (MoE router) ----
_TOPK = {}


def _topk_kernel(k, renormalize=True):
    """One kernel per (k, form), built once: the module cache then compiles each once."""
    key = (k, renormalize)
    if key not in _TOPK:
        _TOPK[key] = recipes.topk_gating(f"topk_gating_k{k}{'' if renormalize else '_all'}", k=k,
                                         renormalize=renormalize, block_dim=8, tile_length=1024)
    return _TOPK[key]


def _check_router(logits, k, renormalize=True, backend="builtin"):
    got = _run(_topk_kernel(k, renormalize), logits.shape, {"logits": logits}, backend=backend)
    want = recipes.topk_gating_reference(logits, k, renormalize)
    np.testing.assert_array_equal(got["indices"], want["indices"])
    np.testing.assert_allclose(got["weights"], want["weights"], rtol=1e-5, atol=1e-7)
    return got


@pytest.mark.parametrize("rows, experts, k", [(1, 60, 1), (13, 64, 2), (13, 129, 8), (1, 129, 8), (13, 60, 8),
                                              (13, 64, 1)])
def test_topk_gating_equals_the_textbook_router(rows, experts, k):
    logits = _half(rows, experts)          # half logits over 129 experts hold equal values: ties included
    got = _check_router(logits, k)
    np.testing.assert_allclose(got["weights"].sum(axis=1), 1.0, rtol=1e-6)
    assert (np.diff(np.take_along_axis(logits, got["indices"], axis=1).astype(np.float32), axis=1) <= 0).all()


def test_topk_gating_ties_go_to_the_lower_expert_first():
    logits = rng.choice(np.array([-1.0, 0.0, 0.5, 1.0], np.float16), (13, 60))   # every row full of ties
    logits[0] = 0.25                                                             # one row all equal
    logits[1, [7, 3, 50]] = 2.0                                                  # a three-way tie at the top
    got = _check_router(logits, 8)
    np.testing.assert_array_equal(got["indices"][0], np.arange(8))
    np.testing.assert_allclose(got["weights"][0], 1 / 8, rtol=1e-6)
    np.testing.assert_array_equal(got["indices"][1, :3], [3, 7, 50])


def test_topk_gating_ranks_infinities_as_the_float32_extremes():
    logits = _half(13, 60)
    logits[0] = -np.inf                                   # an all-masked token: experts 0.., equal gates
    logits[1, [5, 2]] = np.inf                            # two +inf experts share the gate
    logits[2, ::2] = -np.inf                              # masked experts come after every finite one
    got = _check_router(logits, 8)
    np.testing.assert_array_equal(got["indices"][0], np.arange(8))
    np.testing.assert_allclose(got["weights"][0], 1 / 8, rtol=1e-6)
    np.testing.assert_array_equal(got["indices"][1, :2], [2, 5])
    np.testing.assert_array_equal(got["weights"][1], [0.5, 0.5, 0, 0, 0, 0, 0, 0])
    assert (got["indices"][2] % 2 == 1).all() and np.isfinite(got["weights"]).all()


def test_topk_gating_refuses_a_nan_logit_naming_its_row():
    logits = _half(13, 60)
    logits[9, 33] = np.nan
    with pytest.raises(KernelError, match=r"topk_gating_k8: row 9 holds a NaN logit, which TopK cannot rank"):
        _run(_topk_kernel(8), logits.shape, {"logits": logits})
    with pytest.raises(ValueError, match="row 9 holds a NaN logit"):
        recipes.topk_gating_reference(logits, 8)


def test_topk_gating_needs_k_experts_per_token():
    logits = _half(3, 5)
    with pytest.raises(KernelError, match=r"topk_gating_k8: TopK selects 8 lanes of rows of cols = 5"):
        _run(_topk_kernel(8), logits.shape, {"logits": logits})


@pytest.mark.parametrize("rows, experts", [(13, 129), (1, 64)])
def test_topk_gating_softmax_over_all_experts_then_topk(rows, experts):
    logits = _half(rows, experts)
    logits[0, 3] = np.inf                                # the one +inf expert takes the whole probability
    got = _check_router(logits, 8, renormalize=False)
    assert got["indices"][0, 0] == 3 and got["weights"][0, 0] == 1.0
    assert (got["weights"].sum(axis=1) <= 1 + 1e-6).all()


@pytest.mark.parametrize("rows, experts, renormalize", [(13, 129, True), (5, 1000, True), (13, 129, False)])
def test_topk_gating_is_bit_identical_on_both_backends_with_ties_and_infinities(rows, experts, renormalize):
    # 129 experts: the library's ReduceMax joins a body of whole repeats and a tail; 1000: several levels
    logits = rng.choice(np.array([-np.inf, -1.0, 0.0, 0.5, 1.0, np.inf], np.float16), (rows, experts))
    logits[0] = -np.inf
    builtin = _check_router(logits, 8, renormalize)
    devkit = _check_router(logits, 8, renormalize, backend="devkit")
    for name in ("indices", "weights"):
        np.testing.assert_array_equal(builtin[name].view(np.uint32), devkit[name].view(np.uint32))
