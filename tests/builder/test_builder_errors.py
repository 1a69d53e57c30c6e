"""Bad builder input: a SpecError naming what and where (the spec line), never a crash; the CLI prints one
line and exits 2."""
from __future__ import annotations

import textwrap

import pytest

import ascgen
from ascgen.builder import Add, Cast, Exp, Kernel, LeakyRelu, Relu, load_spec
from ascgen.cli import main
from ascgen.errors import SpecError, UnsupportedProductError
from ascgen.codegen.plan import plan_kernel
from ascgen.codegen.plan_rows import plan_rows


def _kernel(**kw):
    k = Kernel("k", **kw)
    x = k.input("x", "float32")
    k.output("y", Exp(x))
    return k


def test_exp_on_int32_names_the_op_dtype_and_line():
    k = Kernel("k")
    x = k.input("x", "int32")
    with pytest.raises(SpecError, match=r"Exp at test_builder_errors\.py:\d+ does not support int32; supported: float16, float32"):
        Exp(x)


def test_mismatched_dtypes_suggest_a_cast():
    k = Kernel("k")
    a, b = k.input("a", "float16"), k.input("b", "float32")
    with pytest.raises(SpecError, match=r"operand dtypes differ \(float16 and float32\); hint: Cast"):
        Add(a, b)


def test_output_dtype_mismatch():
    k = Kernel("k")
    a = k.input("a", "float16")
    with pytest.raises(SpecError, match="declared float32 but the expression is float16"):
        k.output("o", Relu(a), dtype="float32")


def test_operands_of_two_kernels():
    a = Kernel("k1").input("a", "float16")
    b = Kernel("k2").input("b", "float16")
    with pytest.raises(SpecError, match="belongs to kernel 'k2'"):
        Add(a, b)


@pytest.mark.parametrize("bad", ["float64", "int64", "complex64", "nonsense"])
def test_unknown_dtype(bad):
    with pytest.raises(SpecError, match="unsupported dtype"):
        Kernel("k").input("x", bad)


def test_unknown_op_is_an_attribute_error_of_the_builder_module():
    import ascgen.builder as b
    with pytest.raises(AttributeError):
        b.Tanh  # noqa: B018 - not offered


def test_unknown_round_mode_and_unsupported_conversion():
    k = Kernel("k")
    x = k.input("x", "float32")
    with pytest.raises(SpecError, match="unknown round mode 'nearest'"):
        Cast(x, "float16", round="nearest")
    with pytest.raises(SpecError, match=r"round mode 'odd' is not offered for float32 -> int32"):
        Cast(x, "int32", round="odd")
    i8 = k.input("i8", "int8")
    with pytest.raises(SpecError, match=r"int8 -> float32 is not offered; from int8 you can cast to float16"):
        Cast(i8, "float32")


def test_scalar_operand_checks():
    k = Kernel("k")
    x = k.input("x", "int16")
    with pytest.raises(SpecError, match="does not fit in int16"):
        x + 40000
    with pytest.raises(SpecError, match="is not an integer"):
        x * 1.5
    f = k.input("f", "float16")
    with pytest.raises(SpecError, match="must be finite"):
        LeakyRelu(f, float("nan"))


@pytest.mark.parametrize("kw,match", [
    ({"block_dim": 0}, "block_dim must be an integer >= 1"),
    ({"tile_length": 0}, "tile_length must be an integer >= 1"),
    ({"buffer_num": 3}, "buffer_num must be 1"),
    ({"task_sync": "sometimes"}, "task_sync must be one of both, wait, set, none"),
])
def test_bad_kernel_settings(kw, match):
    with pytest.raises(SpecError, match=match):
        Kernel("k", **kw)


def test_block_dim_above_the_products_cores():
    with pytest.raises(SpecError, match="block_dim 9 is above the 8 vector cores of ascend310p"):
        plan_kernel(_kernel(block_dim=9), "ascend310p")
    plan_kernel(_kernel(block_dim=48), "ascend910b")     # the twin: 48 AIV cores there


def test_misaligned_tile():
    with pytest.raises(SpecError, match=r"tile_length 1001 is not a multiple of 32 bytes of float32 \(8 elements\).*Use 1000 or 1008"):
        plan_kernel(_kernel(tile_length=1001), "ascend910b")


def test_ub_overflow_says_by_how_much():
    k = _kernel(tile_length=16384)      # 2 queues x 2 buffers x 64 KiB = 256 KiB
    with pytest.raises(SpecError) as err:
        plan_kernel(k, "ascend910b")
    message = str(err.value)
    assert "needs 262144 B of UB" in message and "188160 B usable" in message
    assert "over by 73984 B" in message and "tile_length <= 11760" in message
    plan_kernel(k, "ascend310p")          # 256 KiB usable there: it fits exactly


def test_unknown_product():
    with pytest.raises(UnsupportedProductError, match="unknown product"):
        ascgen.emit(_kernel(), "ascend9000")


def test_kernel_without_output():
    k = Kernel("k")
    k.input("x", "float16")
    with pytest.raises(SpecError, match="has no output"):
        ascgen.emit(k, "ascend910b")


def test_reserved_and_duplicate_names():
    with pytest.raises(SpecError, match="reserved"):
        Kernel("k").input("totalLength", "float16")
    k = Kernel("k")
    k.input("x", "float16")
    with pytest.raises(SpecError, match="already used"):
        k.input("x", "float16")
    with pytest.raises(SpecError, match="not a C identifier"):
        Kernel("my-kernel")
    with pytest.raises(SpecError, match="reserved"):      # would collide with x's generated locals
        Kernel("k2").input("xLocal", "float16")


def test_spec_file_without_kernel(tmp_path):
    spec = tmp_path / "empty.py"
    spec.write_text("x = 1\n")
    with pytest.raises(SpecError, match="empty.py defines no kernel"):
        load_spec(spec)


def test_spec_file_that_raises_points_at_its_line(tmp_path):
    spec = tmp_path / "broken.py"
    spec.write_text("from ascgen.builder import Kernel\n\nraise RuntimeError('boom')\n")
    with pytest.raises(SpecError, match=r"broken.py:3: running the spec file raised RuntimeError: boom"):
        load_spec(spec)


def test_spec_discovery_order_and_kernels_list(tmp_path):
    spec = tmp_path / "two.py"
    spec.write_text(textwrap.dedent("""
        from ascgen.builder import Kernel, Relu
        b = Kernel("second_made_first")
        b.output("o", Relu(b.input("src", "float16")))
        a = Kernel("made_second")
        a.output("o", Relu(a.input("src", "float16")))
    """))
    assert [k.name for k in load_spec(spec)] == ["second_made_first", "made_second"]
    spec.write_text(spec.read_text() + "KERNELS = [a]\n")
    assert [k.name for k in load_spec(spec)] == ["made_second"]


def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    spec = tmp_path / "bad.py"
    spec.write_text("from ascgen.builder import Kernel, Exp\nk = Kernel('k')\nk.output('y', Exp(k.input('x', 'int32')))\n")
    assert main(["emit", str(spec), "--product", "ascend910b", "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Exp at bad.py:3 does not support int32" in err
    assert main(["emit", str(spec), "--product", "nope", "-o", str(tmp_path / "out")]) == 2
    assert "unknown product 'nope'" in capsys.readouterr().err


def test_products_refuse_what_their_library_lacks():
    k = Kernel("k")
    x = k.input("x", "float32")
    k.output("y", Cast(x, "int32", round="floor"))
    assert "RoundMode::CAST_FLOOR" in ascgen.emit(k, "ascend910_93")
    with pytest.raises(SpecError, match=r"Cast at test_builder_errors\.py:\d+: float32 -> int32 with round='floor' "
                                        r"is not offered on ascend310p \(__NPU_ARCH__ 2002\); there float32 converts to: float16"):
        plan_kernel(k, "ascend310p")
    r = Kernel("r")
    r.output("y", Relu(r.input("x", "int32")))
    plan_kernel(r, "ascend310p")
    with pytest.raises(SpecError, match="Relu at .* on int32 is not offered on ascend910 .*there it takes float16"):
        plan_kernel(r, "ascend910")


def test_rint_is_spelled_cast_none_where_only_that_exists():
    # CAST_NONE on a lossy conversion is round-to-nearest-even: the same result, another spelling
    k = Kernel("k")
    k.output("h", Cast(k.input("x", "float32"), "float16", round="rint"))
    assert "RoundMode::CAST_RINT" in ascgen.emit(k, "ascend950")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert "RoundMode::CAST_NONE" in ascgen.emit(k, "ascend310p")


def test_the_310p_vector_core_has_no_basic_vector_api():
    with pytest.raises(SpecError, match="vector API the builder emits .* is not offered on ascend310p_vec"):
        plan_kernel(_kernel(block_dim=4), "ascend310p_vec")


# ---- TopK (2-D kernels): the k largest lanes of each row ----
def _rows_kernel(dtype="float32"):
    k = Kernel("k", tile_length=1024)
    return k, k.input("x", dtype, shape=("rows", "cols"))


def test_topk_takes_float32_rows():
    from ascgen.builder import TopK
    k, x = _rows_kernel("float16")
    with pytest.raises(SpecError, match=r"TopK at test_builder_errors\.py:\d+: takes float32 values, got float16; "
                                        r"hint: Cast\(x, 'float32'\)"):
        TopK(x, 8)
    with pytest.raises(SpecError, match=r"TopK at test_builder_errors\.py:\d+: selects within each row of a \(rows, "
                                        r"cols\) tensor, got a 1-D kernel's tensor"):
        TopK(Kernel("flat").input("x", "float32"), 8)


@pytest.mark.parametrize("bad", [0, 65, 2.0, True])
def test_topk_k_is_an_integer_from_1_to_64(bad):
    from ascgen.builder import TopK
    k, x = _rows_kernel()
    with pytest.raises(SpecError, match=r"TopK at test_builder_errors\.py:\d+: k must be an integer in \[1, 64\]"):
        TopK(x, bad)


def test_one_topk_per_kernel_and_indices_come_from_a_topk():
    from ascgen.builder import TopK, TopKIndices
    k, x = _rows_kernel()
    TopK(x, 2)
    with pytest.raises(SpecError, match=r"TopK at test_builder_errors\.py:\d+: kernel 'k' already has a TopK"):
        TopK(x, 2)
    with pytest.raises(SpecError, match=r"TopKIndices at test_builder_errors\.py:\d+: the operand is the result of "
                                        r"TopK\(x, k\), got Exp"):
        TopKIndices(Exp(x))


def test_topk_values_meet_per_row_values_not_rows_of_cols():
    from ascgen.builder import Mean, ReduceMax, TopK
    k, x = _rows_kernel()
    v = TopK(x, 4)
    assert (v - ReduceMax(v)).shape == ("rows", "4")
    with pytest.raises(SpecError, match=r"Add at test_builder_errors\.py:\d+: a \(rows, k\) top-k tensor and a "
                                        r"\(rows, cols\) tensor do not combine"):
        Add(v, x)
    with pytest.raises(SpecError, match=r"Mean at test_builder_errors\.py:\d+: the mean of a \(rows, k\) top-k tensor "
                                        r"is not offered"):
        Mean(v)


def test_a_topk_output_without_datacopypad_needs_rows_of_whole_32_byte_units():
    from ascgen.builder import TopK
    k = Kernel("k", tile_length=1024)
    x = k.input("x", "float32", shape=("rows", "cols"))    # named before the cols promise, which would not help
    k.output("v", TopK(x, 4))
    with pytest.raises(SpecError, match=r"output 'v' at test_builder_errors\.py:\d+: ascend310p has no DataCopyPad, so "
                                        r"a \(rows, k\) top-k output moves in whole 32-byte units, and k = 4 float32 is "
                                        r"16 bytes per row: use k a multiple of 8"):
        plan_rows(k.spec(), "ascend310p")
