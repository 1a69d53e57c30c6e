"""Matmul kernels: the builder's rules for operands and epilogue (errors name what, where and the fix),
the planner's refusals (product without separate AIC/AIV, K without the multiple-of-16 promise, cube
memory budgets, reductions in the epilogue, block_dim in AI Cores) and the reference's accumulation order."""
from __future__ import annotations

import re

import numpy as np
import pytest

import ascgen
from ascgen.builder import Cast, Exp, Kernel, Matmul, ReduceSum, Relu
from ascgen.builder.reference import evaluate, matmul
from ascgen.codegen.plan_matmul import plan_matmul
from ascgen.errors import SpecError


def _operands(dtype="float16", k_multiple=16):
    k = Kernel("mm", block_dim=2)
    kd = k.dim("K", multiple_of=k_multiple)
    a = k.input("a", dtype, shape=("M", kd))
    b = k.input("b", dtype, shape=(kd, "N"))
    return k, a, b


def test_dims_params_and_the_workspace_output():
    k, a, b = _operands()
    c = Matmul(a, b)
    bias = k.input("bias", "float32", shape=("N",))
    k.output("y", Cast(Relu(c + bias), "float16"))
    assert k.dims == ("M", "N", "K") and c.shape == ("M", "N") and c.dtype == np.float32
    assert [(p.name, p.kind, p.shape) for p in k.params] == [
        ("a", "input", ("M", "K")), ("b", "input", ("K", "N")), ("bias", "input", ("N",)),
        ("workspace", "output", ("M", "N")), ("y", "output", ("M", "N"))]
    text = ascgen.emit(k, "ascend910_93")
    assert ("void mm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR workspace, GM_ADDR y, uint32_t M, uint32_t N, "
            "uint32_t K)") in text


@pytest.mark.parametrize("build, message", [
    (lambda k, a, b: Matmul(a * 2.0, b), r"Matmul at .*: the operands are inputs .* used as they are \(no prologue ops\)"),
    (lambda k, a, b: (Matmul(a, b), a * 2.0), r"Muls at .*: a Matmul operand is used by Matmul only"),
    (lambda k, a, b: Matmul(b, a), r"Matmul at .*: the operands are inputs declared with shape=\(M, K\) and then"),
    (lambda k, a, b: (Matmul(a, b), Matmul(a, b)), r"Matmul at .*: kernel 'mm' already has a Matmul; one per kernel"),
    (lambda k, a, b: Matmul(a, b, tile=(64, 60, 32)), r"tile must be \(BM, BN, BK\), positive multiples of 16"),
    (lambda k, a, b: k.input("g", "float32", shape=("N",)), r"declare the epilogue's per-column vectors after Matmul"),
    (lambda k, a, b: k.input("r", "float32", shape=("M", "N")), r"\('M', 'N'\) differs .*declare the epilogue's inputs after"),
    (lambda k, a, b: (Matmul(a, b), ReduceSum(a)), r"ReduceSum at .*: reduces a \(rows, cols\) tensor along its rows, got a Matmul operand"),
])
def test_operand_and_order_errors_name_the_line(build, message):
    k, a, b = _operands()
    with pytest.raises(SpecError, match=message):
        build(k, a, b)


def test_mixed_and_unsupported_operands_are_refused_at_the_call():
    k = Kernel("mm")
    a = k.input("a", "int8", shape=("M", "K"))
    b = k.input("b", "float16", shape=("K", "N"))
    with pytest.raises(SpecError, match=r"operands are int8 and float16; the cube takes float16, bfloat16, int8 for both"):
        Matmul(a, b)
    k2, a2, b2 = _operands("float32")
    with pytest.raises(SpecError, match=r"operands are float32 and float32"):
        Matmul(a2, b2)


def test_int8_accumulates_in_int32_and_needs_tiles_in_32s():
    k, a, b = _operands("int8", k_multiple=32)
    c = Matmul(a, b, tile=(32, 64, 64))
    assert c.dtype == np.int32 and next(p for p in k.params if p.name == "workspace").dtype == np.int32
    k.output("y", Cast(Cast(c, "float32") * 0.5, "float16"))
    text = ascgen.emit(k, "ascend910b")
    assert "AscendC::LoadDataWithTranspose(b2[i * (nUp / 16) * 512], b1, lb);" in text
    assert "AscendC::GlobalTensor<int32_t> workspaceGm;" in text
    kt, at, bt = _operands("int8", k_multiple=32)
    kt.output("y", Cast(Matmul(at, bt, tile=(32, 48, 64)), "float32"))
    with pytest.raises(SpecError, match=r"int8 tiles have BN and BK multiples of 32 .*got tile=\(32, 48, 64\)"):
        plan_matmul(kt.spec(), "ascend910b")
    a8 = np.int8([[127, -128], [1, 2]])
    assert np.array_equal(matmul(a8, a8, 32), (a8.astype(np.int64) @ a8.astype(np.int64)).astype(np.int32))


def _kernel(k_multiple=16, tile=(64, 64, 32), block_dim=2, epilogue=lambda c: Relu(c)):
    k, a, b = _operands(k_multiple=k_multiple)
    k.block_dim = block_dim
    k.output("y", epilogue(Matmul(a, b, tile=tile)))
    return k


@pytest.mark.parametrize("product", ["ascend310p", "ascend910", "ascend310b"])
def test_products_without_separate_cube_and_vector_cores_refuse_by_name(product):
    with pytest.raises(SpecError, match=rf"Matmul is emitted as a MIX kernel .* not offered on {product} .*no separate "
                                        r"AIC and AIV cores; target ascend910b, ascend910_93 or ascend950"):
        plan_matmul(_kernel().spec(), product)


def test_any_k_is_planned_and_promises_are_checked_at_run_time():
    """No promise needed: K is padded to whole fractals in L1 / L0 and Mmad sums only the true K; a
    declared multiple_of becomes a run-time check naming the dim and the declaring line."""
    text = ascgen.emit(_kernel(k_multiple=1), "ascend910b")
    assert "uint32_t kkUp = (kk + 15) / 16 * 16;" in text and "mp.k = static_cast<uint16_t>(kk);" in text
    assert 'ascendc_assert(K > 0, "mm: K = 0: a Matmul of an empty sum is not offered' in text
    assert "% 16 == 0" not in text
    text = ascgen.emit(_kernel(k_multiple=16), "ascend910b")
    assert re.search(r'ascendc_assert\(K % 16 == 0, "mm: K = %u breaks its promise multiple_of=16 \(k.dim at '
                     r'test_matmul\.py:\d+\); launch with a multiple of 16 or drop the promise", K\);', text)


@pytest.mark.parametrize("tile, memory, product", [((256, 256, 16), "L0C", "ascend910b"),
                                                   ((512, 16, 128), "L0A", "ascend950"),
                                                   ((16, 512, 128), "L0B", "ascend910_93")])
def test_cube_budgets_are_refused_with_the_memory_and_excess(tile, memory, product):
    pattern = re.escape(f"tile={tile} needs ") + rf"\d+ B of {memory} .* over by \d+ B"
    with pytest.raises(SpecError, match=pattern):
        plan_matmul(_kernel(tile=tile).spec(), product)


def test_l0c_is_bigger_on_950():
    plan_matmul(_kernel(tile=(256, 160, 16)).spec(), "ascend950")       # 160 KB of L0C: 256 KB there
    with pytest.raises(SpecError, match="L0C"):
        plan_matmul(_kernel(tile=(256, 160, 16)).spec(), "ascend910b")


def test_reductions_in_the_epilogue_and_too_many_ai_cores_are_refused():
    with pytest.raises(SpecError, match=r"ReduceSum at .*: row reductions are not offered in a Matmul epilogue"):
        plan_matmul(_kernel(epilogue=lambda c: c / ReduceSum(Exp(c))).spec(), "ascend910b")
    with pytest.raises(SpecError, match=r"block_dim 99 counts AI Cores .*ascend910b has 24; use 1..24"):
        plan_matmul(_kernel(block_dim=99).spec(), "ascend910b")


def test_reference_accumulates_each_k_slice_then_adds_the_slices():
    a = np.float16([[1.0, 2.0 ** -11] * 16])                 # 32 columns: two slices of BK = 16
    b = np.ones((32, 1), np.float16)
    # per slice: 1 + 2^-11 eight times in float32 (exact), then the two slices added
    assert matmul(a, b, 16)[0, 0] == np.float32(16 + 16 * 2.0 ** -11)
    big = np.float16([[2048.0] + [1.0] * 31])
    assert matmul(big, b, 32)[0, 0] == np.float32(2048 + 31)
    k = _kernel(epilogue=lambda c: Cast(c, "float16"))
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((5, 48)).astype(np.float16), rng.standard_normal((48, 7)).astype(np.float16)
    out = evaluate(k, {"a": x, "b": w})
    np.testing.assert_allclose(out["workspace"], x.astype(np.float64) @ w.astype(np.float64), rtol=1e-5, atol=1e-5)
    assert out["y"].dtype == np.float16 and out["y"].shape == (5, 7)
