"""Every example spec in examples/, emitted for each product family, run on the emulator, equals the numpy
reference at lengths with tails; and `ascgen test` reports pass/fail with the right exit code."""

import numpy as np
import pytest

from ascgen import cli
from ascgen.builder import load_spec
from ascgen.errors import SpecError
from ascgen.commands import test as spec_test
from tests.paths import EXAMPLES

EXAMPLES = sorted(EXAMPLES.glob("*.py"))
PRODUCTS = ["ascend910_93", "ascend910b", "ascend950", "ascend310p"]


def _kernels():
    out = []
    for spec in EXAMPLES:
        for k in load_spec(spec):
            out.append((spec, k))
    return out


KERNELS = _kernels()


# Example kernels a product cannot run: the builder must refuse them with a clear error, never emit them.
NOT_OFFERED = {("bf16_leaky", "ascend310p"): "bfloat16 is not offered on ascend310p"}


@pytest.mark.parametrize("product", PRODUCTS)
@pytest.mark.parametrize("spec, kernel", KERNELS, ids=[k.name for _, k in KERNELS])
def test_example_equals_reference(spec, kernel, product):
    refusal = NOT_OFFERED.get((kernel.name, product))
    if refusal is not None:
        with pytest.raises(SpecError, match=refusal):
            spec_test.check_kernel(kernel, product)
        return
    result = spec_test.check_kernel(kernel, product)
    failures = [f"length {c.length}: {c.detail}" for c in result.cases if not c.ok]
    assert not failures, f"{kernel.name} on {product}:\n" + "\n".join(failures)
    expected = {0, kernel.tile_length + 7, result.min_length}
    if result.min_length > 1:                   # no DataCopyPad: the shortest supported lengths are tested
        expected |= {result.min_length + 1}
    assert {c.length for c in result.cases} >= expected
    assert all(0 < n < result.min_length for n in result.unsupported)


def test_lengths_cover_tails_of_tiles_and_32_bytes():
    for _, k in KERNELS:
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
