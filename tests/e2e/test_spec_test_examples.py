"""Every example spec in examples/, emitted for each product family, run on the emulator, equals the numpy
reference at lengths with tails; and `ascgen test` reports pass/fail with the right exit code."""

import warnings

import numpy as np
import pytest

from ascgen import cli
from ascgen.builder import load_spec
from ascgen.errors import SpecError
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning
from ascgen.commands import test as spec_test
from tests.paths import EXAMPLES

EXAMPLES = sorted(EXAMPLES.glob("*.py"))
# One product per architecture runs every example; ascend910_93 emits ascend910b's program (the same
# __NPU_ARCH__ and cores, task sync only differs inside a SuperKernel) with other comments, which
# test_ascend910_93_emits_the_ascend910b_program asserts, so running it again would compile the same code
# once more per kernel (about 1 min of the suite's CPU). It runs add_relu here (and the README's demo);
# benchmarks/bench_spec_examples.py runs every example on all four products.
PRODUCTS = ["ascend910b", "ascend950", "ascend310p"]


def _kernels():
    out = []
    for spec in EXAMPLES:
        for k in load_spec(spec):
            out.append((spec, k))
    return out


KERNELS = _kernels()


# Example kernels a product cannot run: the builder must refuse them with a clear error, never emit them.
_NO_PAD = "ascend310p has no DataCopyPad"
NOT_OFFERED = {("bf16_leaky", "ascend310p"): "bfloat16 is not offered on ascend310p",
               # 2-D kernels whose cols are not promised to be whole 32-byte units, or with per-row outputs
               ("softmax", "ascend310p"): _NO_PAD, ("log_softmax", "ascend310p"): _NO_PAD,
               ("layernorm", "ascend310p"): _NO_PAD, ("row_stats", "ascend310p"): _NO_PAD,
               # Matmul is a MIX kernel: AIC and AIV are one core on ascend310p
               ("matmul_relu", "ascend310p"): "no separate AIC and AIV cores",
               ("matmul_bf16", "ascend310p"): "no separate AIC and AIV cores",
               ("matmul_int8", "ascend310p"): "no separate AIC and AIV cores"}


def _code_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.lstrip().startswith("//")]


def test_ascend910_93_emits_the_ascend910b_program():
    from ascgen.codegen.emit import emit
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        for _, kernel in KERNELS:
            assert _code_lines(emit(kernel, "ascend910_93")) == _code_lines(emit(kernel, "ascend910b")), kernel.name


CASES = [(spec, k, p) for spec, k in KERNELS for p in PRODUCTS] + \
        [(spec, k, "ascend910_93") for spec, k in KERNELS if k.name == "add_relu"]


@pytest.mark.parametrize("spec, kernel, product", CASES, ids=[f"{k.name}-{p}" for _, k, p in CASES])
def test_example_equals_reference(spec, kernel, product):
    refusal = NOT_OFFERED.get((kernel.name, product))
    if refusal is not None:
        with pytest.raises(SpecError, match=refusal):
            spec_test.check_kernel(kernel, product)
        return
    result = spec_test.check_kernel(kernel, product)
    failures = [f"length {c.length}: {c.detail}" for c in result.cases if not c.ok]
    assert not failures, f"{kernel.name} on {product}:\n" + "\n".join(failures)
    if kernel.spec().matmul is not None:
        _assert_matmul_cases(kernel, product, [c.length for c in result.cases])
        return
    if kernel.dims:
        _assert_2d_cases(kernel, product, [c.length for c in result.cases])
        return
    expected = {0, kernel.tile_length + 7, result.min_length}
    if result.min_length > 1:                   # no DataCopyPad: the shortest supported lengths are tested
        expected |= {result.min_length + 1}
    assert {c.length for c in result.cases} >= expected
    assert all(0 < n < result.min_length for n in result.unsupported)


def _assert_2d_cases(kernel, product, shapes):
    """The (rows, cols) cases cover: no rows, fewer rows than cores, more tiles than cores with a ragged
    last tile, rows shorter than a tile, the longest row, and (with DataCopyPad) rows of odd byte length."""
    from ascgen.codegen.plan_rows import plan_rows
    plan = plan_rows(kernel.spec(), product)
    rows = {r for r, _ in shapes}
    assert 0 in rows and any(0 < r < kernel.block_dim for r in rows)
    assert any(r > 2 * kernel.block_dim * plan.max_tile_rows for r in rows)
    assert any(c < kernel.tile_length for _, c in shapes) and any(c == kernel.tile_length for _, c in shapes)
    if plan.data_copy_pad and not plan.rotate_multiple:       # else the kernel asserts whole 32-byte rows
        assert any(c % plan.align_elems for _, c in shapes)


def _assert_matmul_cases(kernel, product, shapes):
    """(M, N, K) cases: empty, ragged M and N tiles, more tiles than AI Cores, several K slices."""
    from ascgen.codegen.plan_matmul import plan_matmul
    bm, bn, bk = plan_matmul(kernel.spec(), product).tile
    assert any(m == 0 for m, _, _ in shapes)
    assert any(m % bm and n % bn for m, n, _ in shapes)
    assert any(-(-m // bm) * -(-n // bn) > kernel.block_dim for m, n, _ in shapes)
    assert any(k > bk and k % bk for _, _, k in shapes)


def test_lengths_cover_tails_of_tiles_and_32_bytes():
    for _, k in KERNELS:
        if k.dims:
            continue                     # 2-D kernels: _assert_2d_cases

        lengths = spec_test.lengths_for(k)
        assert any(n % k.tile_length for n in lengths if n)          # not a multiple of the tile
        assert any((n * 2) % 32 for n in lengths)                   # not a multiple of 32 bytes (for 2-byte types)
        assert max(lengths) > k.tile_length * k.block_dim           # more tiles than cores


def test_cli_prints_the_table_and_exits_0(capsys):
    spec = next(p for p in EXAMPLES if p.stem == "add_relu")
    rc = cli.main(["test", str(spec), "--product", "ascend910b", "--length", "77", "--length", "4099"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "add_relu" in out and "PASS" in out and "77,4099" in out


def test_cli_exits_1_when_a_kernel_disagrees_with_the_reference(capsys, monkeypatch):
    import ascgen.builder.reference as reference
    real = reference.evaluate

    def off_by_one(kernel, inputs, scalars=None, **kw):
        return {k: (v.astype(np.float64) + 1).astype(v.dtype) for k, v in real(kernel, inputs, scalars, **kw).items()}

    monkeypatch.setattr(reference, "evaluate", off_by_one)
    spec = next(p for p in EXAMPLES if p.stem == "add_relu")
    rc = cli.main(["test", str(spec), "--product", "ascend910b", "--length", "100"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "FAIL" in out and "elements differ" in out
