"""The numpy oracle against hand-computed values: per-op rounding, integer wrap, Cast round modes."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from ascgen.builder import Cast, Duplicate, Exp, Kernel, LeakyRelu, Ln, Maxs, Relu
from ascgen.builder.reference import evaluate, random_inputs, tolerance


def test_half_is_rounded_after_every_op():
    k = Kernel("k")
    x = k.input("x", "float16")
    k.output("y", (x + 1.0) - 1.0)
    # 2**-12 is lost when 1 + 2**-12 is rounded to half; a single final rounding would keep it
    out = evaluate(k, {"x": np.array([2**-12], np.float16)})["y"]
    assert out.dtype == np.float16 and out[0] == 0.0


def test_add_relu_muls_scalar_param():
    k = Kernel("k")
    x, y = k.input("x", "float16"), k.input("y", "float16")
    alpha = k.scalar("alpha", "float32", default=0.5)
    k.output("z", Relu(x + y) * alpha)
    xs, ys = np.array([1.0, -3.0, 0.25], np.float16), np.array([2.0, 1.0, 0.5], np.float16)
    assert evaluate(k, {"x": xs, "y": ys})["z"].tolist() == [1.5, 0.0, 0.375]
    assert evaluate(k, {"x": xs, "y": ys}, {"alpha": -2.0})["z"].tolist() == [-6.0, -0.0, -1.5]


def test_int16_wraps_and_maxs():
    k = Kernel("k")
    a = k.input("a", "int16")
    k.output("s", a + a)
    k.output("m", Maxs(a, -5))
    out = evaluate(k, {"a": np.array([20000, -7, 3], np.int16)})
    assert out["s"].tolist() == [-25536, -14, 6]
    assert out["m"].tolist() == [20000, -5, 3]


def test_softplus_in_float32_then_half():
    k = Kernel("k")
    x = k.input("x", "float16")
    k.output("y", Cast(Ln(Exp(Cast(x, "float32")) + 1.0), "float16"))
    xs = np.array([0.0, 1.0, -2.0], np.float16)
    expect = np.log1p(np.exp(xs.astype(np.float32))).astype(np.float16)
    np.testing.assert_array_equal(evaluate(k, {"x": xs})["y"], expect)


def test_leaky_relu_and_duplicate():
    k = Kernel("k")
    x = k.input("x", "float32")
    k.output("y", LeakyRelu(x, 0.1) + Duplicate(x, 2.0))
    out = evaluate(k, {"x": np.array([-1.0, 3.0], np.float32)})["y"]
    np.testing.assert_allclose(out, [1.9, 5.0], rtol=1e-7)


@pytest.mark.parametrize("mode,expect", [
    ("rint", [2, -2, 4, 127, -128, 0]), ("round", [3, -3, 4, 127, -128, 0]),
    ("floor", [2, -3, 3, 127, -128, 0]), ("ceil", [3, -2, 4, 127, -128, 0]), ("trunc", [2, -2, 3, 127, -128, 0]),
])
def test_half_to_int8_round_modes_saturate(mode, expect):
    k = Kernel("k")
    x = k.input("x", "float16")
    k.output("q", Cast(x, "int8", round=mode))
    xs = np.array([2.5, -2.5, 3.5, 300.0, -300.0, np.nan], np.float16)
    assert evaluate(k, {"x": xs})["q"].tolist() == expect


@pytest.mark.parametrize("mode,expect", [
    ("rint", [1.0, 1.0, 1.0 + 2**-9]), ("round", [1.0, 1.0 + 2**-10, 1.0 + 2**-9]),
    ("floor", [1.0, 1.0, 1.0 + 2**-10]), ("ceil", [1.0 + 2**-10, 1.0 + 2**-10, 1.0 + 2**-9]),
    ("trunc", [1.0, 1.0, 1.0 + 2**-10]), ("odd", [1.0 + 2**-10, 1.0 + 2**-10, 1.0 + 2**-10]),
])
def test_float_to_half_round_modes(mode, expect):
    # 1 + 2**-12 (below half an ulp), 1 + 2**-11 (a tie, even is 1.0), 1 + 3 * 2**-11 (a tie, even is up)
    k = Kernel("k")
    x = k.input("x", "float32")
    k.output("h", Cast(x, "float16", round=mode))
    xs = np.array([1 + 2**-12, 1 + 2**-11, 1 + 3 * 2**-11], np.float32)
    assert evaluate(k, {"x": xs})["h"].astype(np.float64).tolist() == expect


def test_bfloat16_round_trip_and_tolerance():
    k = Kernel("k")
    x = k.input("x", "bfloat16")
    k.output("y", Cast(Cast(x, "float32") * 3.0, "bfloat16", round="trunc"))
    xs = np.array([1.0, 1.0078125], ml_dtypes.bfloat16)      # 3 * 1.0078125 = 3.0234375 -> trunc 3.015625
    out = evaluate(k, {"x": xs})["y"]
    assert out.dtype == ml_dtypes.bfloat16 and out.astype(np.float32).tolist() == [3.0, 3.015625]
    assert tolerance("bfloat16")[0] > tolerance("float16")[0] > tolerance("float32")[0]
    assert tolerance("int32") == (0.0, 0.0)


def test_random_inputs_are_deterministic_and_positive_for_ln():
    k = Kernel("k")
    x = k.input("x", "float16")
    k.output("y", Ln(x))
    a, b = random_inputs(k, 100, seed=3), random_inputs(k, 100, seed=3)
    np.testing.assert_array_equal(a["x"], b["x"])
    assert (a["x"] > 0).all()


def test_a_kernel_without_inputs_needs_the_length():
    from ascgen.errors import SpecError
    k = Kernel("k")
    k.output("ones", Duplicate(k, 1.5, "float16"))
    assert evaluate(k, {}, length=3)["ones"].tolist() == [1.5, 1.5, 1.5]
    with pytest.raises(SpecError, match="has no input: pass evaluate"):
        evaluate(k, {})


def test_topk_oracle_orders_descending_ties_to_the_lower_column_and_clamps_infinities():
    from ascgen.builder import TopK, TopKIndices
    from ascgen.errors import SpecError
    k = Kernel("k", tile_length=64)
    v = TopK(k.input("x", "float32", shape=("rows", "cols")), 3)
    k.output("v", v)
    k.output("i", TopKIndices(v))
    x = np.array([[1, 5, 5, 0, 5], [-np.inf, -np.inf, 2, np.inf, -np.inf]], np.float32)
    out = evaluate(k, {"x": x})
    np.testing.assert_array_equal(out["i"], [[1, 2, 4], [3, 2, 0]])
    big = np.finfo(np.float32).max
    np.testing.assert_array_equal(out["v"], [[5, 5, 5], [big, 2, -big]])
    with pytest.raises(SpecError, match=r"TopK at test_reference\.py:\d+: row 1 holds a NaN"):
        evaluate(k, {"x": np.array([[1, 2, 3], [1, np.nan, 3]], np.float32)})
    with pytest.raises(SpecError, match=r"a row of 2 columns has no 3 largest lanes"):
        evaluate(k, {"x": np.ones((1, 2), np.float32)})
