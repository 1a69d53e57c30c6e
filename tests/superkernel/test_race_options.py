"""Race detection follows the SK options and the product: the same misplaced SetNextTaskStart races only
where the calls take effect. Twins of tests/superkernel/test_bugs.py's producer-tail race."""

import numpy as np
import pytest

from ascgen.errors import RaceError
from ascgen.runtime import SuperKernel, load
from tests.paths import SK_BUGS

BUGS = SK_BUGS
N = 4608


@pytest.fixture(scope="module")
def mods():
    out = {}
    for product in ("ascend910_93", "ascend910b"):
        out[product] = {name: load(BUGS / f"{name}.cpp", product=product) for name in ("good", "set_before_tail")}
    return out


def _run(mods, product="ascend910_93", racy=False, **kw):
    x, y, z = np.arange(N, dtype=np.float32), np.zeros(N, np.float32), np.zeros(N, np.float32)
    sk = SuperKernel(product, **kw)
    sk.add(mods[product]["set_before_tail"], "scale_tail", 8, x, y, np.uint32(N))
    sk.add(mods[product]["good"], "shift", 4, y, z, np.uint32(N))
    report = sk.run()
    if not racy:        # where the race is real, threads may really interleave badly: only then the data may differ
        np.testing.assert_array_equal(z, x * 2 + 1)
    return report


def test_early_start_races(mods):
    assert len(_run(mods, racy=True).races) == 1


def test_early_start_off_is_a_full_barrier(mods):
    assert _run(mods, options="early-start=0").races == []


def test_early_start_2_compiles_the_calls_out(mods):
    assert _run(mods, options="early-start=2").races == []


def test_compile_only_product_has_no_race_unless_treated_as_effective(mods):
    assert _run(mods, product="ascend910b").races == []
    assert len(_run(mods, product="ascend910b", racy=True, treat_as_effective=True).races) == 1


def test_detection_off_reports_nothing(mods):
    assert _run(mods, racy=True, detect_races=False).races == []


def test_strict_mode_raises(mods):
    with pytest.raises(RaceError, match="SUMMARY: ascgen: RAW race y"):
        _run(mods, racy=True, strict=True)


def test_stream_fusion_forces_early_start_off(mods):
    assert _run(mods, options="early-start=1:stream-fusion=1").races == []


def test_debug_sync_all_adds_a_full_barrier_after_every_task(mods):
    assert _run(mods, options="early-start=1:debug-sync-all=1").races == []
