"""generated/<product>/decoder/<kernel>.cpp is what `ascgen emit examples/decoder/decoder.py` writes (the
decoder-layer recipes, ascgen/builder/recipes.py): byte for byte, ASCGEN_UPDATE_GOLDEN=1 rewrites them.
A recipe a product cannot run is refused by a SpecError naming exactly what the product lacks."""
from __future__ import annotations

import warnings

import pytest

from ascgen import config
from ascgen.builder import load_spec
from ascgen.codegen.emit import emit_files
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning
from ascgen.errors import SpecError
from tests.paths import REPO

SPEC = REPO / "examples" / "decoder" / "decoder.py"
PRODUCTS = ("ascend910_93", "ascend910b", "ascend950", "ascend310p")
# The refusals listed per product in docs/builder.md "Decoder-layer recipes".
REFUSED = {("add_rmsnorm", "ascend310p"): "kernel 'add_rmsnorm' at decoder.py:6: ascend310p has no DataCopyPad",
           ("rope_interleaved", "ascend310p"): "kernel 'rope_interleaved' at decoder.py:15: ascend310p has no "
                                               "DataCopyPad",
           ("dynamic_quant", "ascend310p"): "Cast at decoder.py:10: float32 -> int32 with round='rint' is not offered "
                                            "on ascend310p",
           ("matmul_dequant", "ascend310p"): "kernel 'matmul_dequant' at decoder.py:11: Matmul is emitted as a MIX "
                                             "kernel",
           ("topk_gating", "ascend310p"): "kernel 'topk_gating' at decoder.py:17: ascend310p has no DataCopyPad"}


@pytest.mark.parametrize("product", PRODUCTS)
def test_recipes_match_their_goldens(product, tmp_path):
    golden_dir = REPO / "generated" / product / "decoder"
    fresh = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        for kernel in load_spec(SPEC):
            refused = REFUSED.get((kernel.name, product))
            if refused:
                with pytest.raises(SpecError) as err:
                    emit_files([kernel], product, tmp_path, spec_path=SPEC)
                assert str(err.value).startswith(refused), str(err.value)
                continue
            for path in emit_files([kernel], product, tmp_path, spec_path=SPEC):
                fresh[path.name] = path.read_text()
    if config.update_golden():
        golden_dir.mkdir(parents=True, exist_ok=True)
        for old in golden_dir.glob("*.cpp"):
            if old.name not in fresh:
                old.unlink()
        for name, text in fresh.items():
            (golden_dir / name).write_text(text, newline="\n")
    assert sorted(p.name for p in golden_dir.glob("*.cpp")) == sorted(fresh)
    for name, text in fresh.items():
        assert (golden_dir / name).read_text() == text, f"generated/{product}/decoder/{name} differs from emit"
