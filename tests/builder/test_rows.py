"""2-D builder kernels: shapes and their errors (what, where, hint), the planner's refusals, and the numpy
reference for row reductions and broadcasts against hand-computed values."""
from __future__ import annotations

import numpy as np
import pytest

import ascgen
from ascgen.builder import Cast, Duplicate, Exp, Kernel, Mean, ReduceMax, ReduceMin, ReduceSum, Sqrt
from ascgen.builder.reference import evaluate, repeat_sum
from ascgen.codegen.plan_rows import plan_rows
from ascgen.errors import SpecError

HERE = r"test_rows\.py:\d+"


def _softmax():
    k = Kernel("sm", block_dim=2, tile_length=256)
    x = k.input("x", "float32", shape=("rows", "cols"))
    e = Exp(x - ReduceMax(x, axis=-1))
    k.output("y", e / ReduceSum(e, axis=-1))
    return k


# ---- shapes ----
def test_dims_become_entry_arguments_after_the_outputs():
    k = _softmax()
    assert k.dims == ("rows", "cols") and k.length_index == 2
    assert [p.shape for p in k.params] == [("rows", "cols"), ("rows", "cols")]
    assert "void sm(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols)" in ascgen.emit(k, "ascend910_93")


def test_value_shapes():
    k = Kernel("k")
    x = k.input("x", "float16", shape=("M", "N"))
    g = k.input("g", "float16", shape=("N",))
    assert ReduceSum(x).shape == ("M",) and g.shape == ("N",) and (x * g).shape == ("M", "N")
    assert (ReduceMax(x) * g).shape == ("M", "N")          # per-row value x per-column vector: an outer op


@pytest.mark.parametrize("build, message", [
    (lambda k, x: k.input("y", "float16"), r"input 'y' at .*: kernel 'k' is 2-D \(rows, cols\); give its shape"),
    (lambda k, x: k.input("y", "float16", shape=("cols", "rows")), r"shape \('cols', 'rows'\) differs from the kernel's"),
    (lambda k, x: k.input("y", "float16", shape=("rows",)), r"per-column vector shape=\('cols',\).*per-row inputs are not offered"),
    (lambda k, x: k.input("y", "float16", shape=("a", "b", "c")), r"shape must be \(rows, cols\) or \(cols,\)"),
    (lambda k, x: ReduceSum(x, axis=0), r"ReduceSum at .*: axis=0 is not offered; rows are reduced along axis=-1"),
    (lambda k, x: ReduceSum(ReduceSum(x)), r"ReduceSum at .*: reduces a \(rows, cols\) tensor along its rows, got a per-row value"),
    (lambda k, x: Exp(k.input("g", "float16", shape=("cols",))), r"Exp at .*: computing on a per-column vector is not offered"),
    (lambda k, x: k.input("g", "float16", shape=("cols",)) + k.input("h", "float16", shape=("cols",)),
     r"Add at .*: a per-column vector and a per-column vector do not combine"),
    (lambda k, x: k.output("g", k.input("g2", "float16", shape=("cols",))), r"a per-column vector cannot be an output"),
    (lambda k, x: Duplicate(x, 1.0), r"Duplicate at .*: not offered in a 2-D kernel"),
    (lambda k, x: ReduceSum(Cast(x, "int32")), r"ReduceSum at .* does not support int32"),
])
def test_shape_errors_name_the_line(build, message):
    k = Kernel("k")
    x = k.input("x", "float16", shape=("rows", "cols"))
    with pytest.raises(SpecError, match=message):
        build(k, x)


def test_a_1d_kernel_cannot_take_2d_inputs_and_reductions_need_rows():
    k = Kernel("k")
    x = k.input("x", "float16")
    with pytest.raises(SpecError, match="already has 1-D inputs"):
        k.input("y", "float16", shape=("rows", "cols"))
    with pytest.raises(SpecError, match=r"ReduceMax at .*: reduces a \(rows, cols\) tensor along its rows, got a 1-D"):
        ReduceMax(x)
    with pytest.raises(SpecError, match="declare a \\(rows, cols\\) input before a per-column vector"):
        Kernel("k3").input("g", "float16", shape=("cols",))


def test_dim_names_are_checked_like_parameters():
    k = Kernel("k")
    with pytest.raises(SpecError, match=r"dim name 'rowStride' at .* is reserved"):
        k.input("x", "float16", shape=("rowStride", "cols"))
    k2 = Kernel("k2")
    k2.input("cols", "float16", shape=("rows", "n"))
    with pytest.raises(SpecError, match="multiple_of must be an integer >= 1"):
        k2.dim("m", multiple_of=0)


# ---- planner refusals ----
def test_without_datacopypad_cols_must_be_promised_whole_32_byte_units():
    with pytest.raises(SpecError, match=r"kernel 'sm' at .*: ascend310p has no DataCopyPad, so rows are copied in whole "
                                        r"32-byte units: declare cols = k.dim\('cols', multiple_of=8\)"):
        plan_rows(_softmax().spec(), "ascend310p")
    k = Kernel("ok", tile_length=256)
    cols = k.dim("cols", multiple_of=8)
    x = k.input("x", "float32", shape=("rows", cols))
    k.output("y", x * 2.0)
    assert plan_rows(k.spec(), "ascend310p").align_elems == 8
    k.output("s", ReduceSum(x))
    with pytest.raises(SpecError, match=r"output 's' at .*: a per-row output needs DataCopyPad, which ascend310p"):
        plan_rows(k.spec(), "ascend310p")


def test_ub_overflow_names_the_buffers_and_the_longest_row_that_fits():
    k = Kernel("big", tile_length=64 * 1024)
    x = k.input("x", "float32", shape=("rows", "cols"))
    k.output("y", x - Mean(x))
    with pytest.raises(SpecError, match=r"kernel 'big' at .*: needs \d+ B of UB \(inQueueX .* over by \d+ B\. "
                                        r"Hint: tile_length <= \d+ \(the longest row a tile holds\) or buffer_num=1"):
        plan_rows(k.spec(), "ascend910_93")


def test_host_mode_adds_the_launcher_with_the_dims_and_forced_calls():
    source = ascgen.emit(_softmax(), "ascend910_93", host=True)
    assert "void sm_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint32_t rows, uint32_t cols)" in source
    assert "sm<<<blockDim, nullptr, stream>>>(x, y, rows, cols);" in source
    assert "AscendC::SetNextTaskStart<PIPE_MTE3, PIPE_FIX, true>();" in source and "SK_BIND" not in source


# ---- reference ----
def test_repeat_sum_adds_each_256_byte_repeat_left_to_right_then_the_partials():
    x = np.float32([[1e8, 1.0, -1e8] + [1.0] * 61 + [3.0, 4.0]])      # 66 floats: a repeat of 64, then 2
    assert repeat_sum(x, "float32")[0, 0] == np.float32(61 + 7)      # 1e8 + 1 rounds to 1e8 in float32
    assert np.float32(x.astype(np.float64).sum()) == 69              # the order matters, and is followed
    h = np.float16([[2048.0, 1.0] + [0.0] * 126 + [1.0]])           # 129 halves: a repeat of 128, then 1
    assert repeat_sum(h, "float16")[0, 0] == np.float16(2048)        # each partial rounds to half: 2049 -> 2048
    assert np.float16(h.astype(np.float32).sum()) == np.float16(2050)


def test_a_row_reduction_needs_rows_of_at_most_two_levels_of_repeats():
    k = Kernel("wide", tile_length=8192)
    x = k.input("x", "float32", shape=("rows", "cols"))
    k.output("s", x - ReduceSum(x))
    with pytest.raises(SpecError, match=r"ReduceSum at .*: kernel 'wide' has tile_length 8192, but a row reduction "
                                        r"of float32 takes rows of at most 4096 elements .* Hint: tile_length <= 4096"):
        plan_rows(k.spec(), "ascend910b")


def test_reductions_and_broadcasts_by_hand():
    k = Kernel("k")
    x = k.input("x", "float16", shape=("rows", "cols"))
    g = k.input("g", "float16", shape=("cols",))
    k.output("centred", (x - ReduceMax(x)) * g)
    k.output("lo", ReduceMin(x))
    k.output("mean", Mean(x))
    k.output("norm", Cast(x, "float32") / Sqrt(ReduceSum(Cast(x, "float32") * Cast(x, "float32"))))
    xv = np.float16([[1, 2, 3], [4, -6, 5]])
    out = evaluate(k, {"x": xv, "g": np.float16([1, 0.5, 2])})
    np.testing.assert_array_equal(out["centred"], np.float16([[-2, -0.5, 0], [-1, -5.5, 0]]))
    np.testing.assert_array_equal(out["lo"], np.float16([1, -6]))
    inv = np.float16(np.float32(1) / np.float32(3))                      # 1/cols rounded to half, like Muls
    np.testing.assert_array_equal(out["mean"], np.float16([np.float16(6) * inv, np.float16(3) * inv]))
    assert out["norm"].shape == (2, 3) and out["norm"].dtype == np.float32
    np.testing.assert_allclose(out["norm"][0], np.float32([1, 2, 3]) / np.sqrt(14), rtol=1e-6)


def test_reference_checks_the_input_shapes():
    k = _softmax()
    with pytest.raises(SpecError, match=r"input 'x' must have shape \('rows', 'cols'\) \(2-D\), got \(4,\)"):
        evaluate(k, {"x": np.zeros(4, np.float32)})
    k2 = Kernel("k2")
    x = k2.input("x", "float32", shape=("rows", "cols"))
    g = k2.input("g", "float32", shape=("cols",))
    k2.output("y", x * g)
    with pytest.raises(SpecError, match="inputs disagree on \\(rows, cols\\)"):
        evaluate(k2, {"x": np.zeros((2, 3), np.float32), "g": np.zeros(4, np.float32)})
