"""The static checker agrees with the emulator on the SuperKernel suite's seeded bugs (tests/data/sk_bugs/,
owned by the SuperKernel part, whose runtime verdicts are race, hang or count mismatch): every file whose
header says "Seeded bug" gets at least one error from `ascgen check`, and every "Correct"/"Clean" file
gets none (a documented weight prefetch may remain a warning)."""
from __future__ import annotations

from pathlib import Path

import pytest

from ascgen.check import check_file
from tests.paths import SK_BUGS

SK_BUGS = SK_BUGS
SOURCES = sorted(SK_BUGS.glob("*.cpp")) if SK_BUGS.is_dir() else []


def verdict(path: Path) -> str | None:
    first = path.read_text().splitlines()[0] if path.read_text() else ""
    if "Seeded bug" in first:
        return "bug"
    if "Correct" in first or "Clean" in first:
        return "clean"
    return None


@pytest.mark.parametrize("path", SOURCES, ids=[p.name for p in SOURCES])
def test_static_verdict_matches_the_runtime_one(path):
    expected = verdict(path)
    if expected is None:
        pytest.skip(f"{path.name} does not say whether it is a seeded bug or a clean case")
    result = check_file(path, product="ascend910_93")
    errors = [str(d) for d in result.errors]
    if expected == "bug":
        assert errors, f"{path.name} is a seeded bug but check found no error"
    else:
        assert not errors, "\n".join(errors)
