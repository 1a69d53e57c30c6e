"""Every emitted source in generated/ passes `ascgen check` for its product: no errors, no warnings, and
nothing skipped (the emulated headers declare everything emitted code uses, so the whole file is analysed)."""
from __future__ import annotations

from pathlib import Path

import pytest

from ascgen import products
from ascgen.check import check_file
from tests.paths import GENERATED

GENERATED = GENERATED
SOURCES = sorted(GENERATED.glob("**/*.cpp")) if GENERATED.is_dir() else []


def product_of(path: Path):
    """generated/<product id>/...: the product the file was emitted for."""
    return products.get(path.relative_to(GENERATED).parts[0])


def test_generated_folder_is_not_empty():
    if not GENERATED.is_dir():
        pytest.skip("generated/ does not exist in this checkout")
    assert SOURCES, "generated/ exists but holds no .cpp: the emitted sources went missing"


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(GENERATED)) for p in SOURCES])
def test_generated_source_is_clean(path):
    product = product_of(path)
    result = check_file(path, product=product)
    loud = [str(d) for d in result.diagnostics if d.severity != "note"]
    assert not loud, "\n".join(loud)
    assert not result.skipped, "\n".join(map(str, result.skipped))
    notes = {d.rule for d in result.diagnostics}
    # The no-effect note appears exactly when the product documents task sync as compile-only.
    uses_sync = "WaitPreTaskEnd" in path.read_text() or "SetNextTaskStart" in path.read_text()
    assert (notes == {"tasksync-no-effect"}) == (uses_sync and product.task_sync == "compile-only")
