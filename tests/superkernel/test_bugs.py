"""Seeded-bug SuperKernels (sources in tests/data/sk_bugs/): each bug gets the verdict the device would give
(race, hang, count mismatch) with the right details, its clean twin gets none, and every verdict is the
same for schedule seeds 0..9 (happens-before, not luck). Modules compile once per session."""
import re

import numpy as np
import pytest

from ascgen.errors import HangError, SyncCountError
from ascgen.runtime import SuperKernel, load
from tests.paths import SK_BUGS

BUGS = SK_BUGS
PRODUCT = "ascend910_93"
N = 4608                 # 8 cores x 576 floats (2 full tiles of 256 + a 64-element tail)
SEEDS = range(10)


@pytest.fixture(scope="session")
def mods():
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = load(BUGS / f"{name}.cpp", product=PRODUCT)
        return cache[name]
    return get


def _x(n=N):
    return (np.arange(n, dtype=np.float32) % 97) - 40.0


def _verdict(run):
    """(error type name, key facts) of one run, comparable across seeds."""
    try:
        report = run()
    except HangError as exc:
        return "HangError", str(exc)            # the whole report: the missing cores are part of the verdict
    except SyncCountError as exc:
        # Every core repeats the call; which one trips first is timing, the verdict (kind, line) is not.
        summary = [line for line in str(exc).splitlines() if line.startswith("SUMMARY:")]
        return "SyncCountError", re.sub(r"\bAI[CV]\d+\b", "<core>", "\n".join(summary))
    return "races", tuple(r.summary() for r in report.races)


def _same_for_all_seeds(make):
    verdicts = {seed: _verdict(lambda: make(seed)) for seed in SEEDS}
    first = verdicts[0]
    assert all(v == first for v in verdicts.values()), f"verdict depends on the schedule seed: {verdicts}"
    return first


# ---- races -------------------------------------------------------------------------------------------

def test_set_before_last_write_is_a_raw_race_in_the_producer_tail(mods):
    def make(seed):
        x, y, z = _x(), np.zeros(N, np.float32), np.zeros(N, np.float32)
        sk = SuperKernel(PRODUCT, schedule_seed=seed)
        sk.add(mods("set_before_tail"), "scale_tail", 8, x, y, np.uint32(N))
        sk.add(mods("good"), "shift", 4, y, z, np.uint32(N))
        return sk.run()
    kind, summaries = _same_for_all_seeds(make)
    assert kind == "races" and len(summaries) == 1, summaries
    assert summaries[0].startswith("SUMMARY: ascgen: RAW race y set_before_tail.cpp:")
    assert summaries[0] == "SUMMARY: ascgen: RAW race y set_before_tail.cpp:20 -> good.cpp:55 (producer tail)"
    race = make(0).races[0]
    text = race.format()
    assert "move SetNextTaskStart (set_before_tail.cpp:41) after line 20" in text
    assert race.earlier.kernel == "scale_tail" and race.later.kernel == "shift"


def test_wait_after_first_read_is_a_raw_race_in_the_consumer_prologue(mods):
    def make(seed):
        x, y, z = _x(), np.zeros(N, np.float32), np.zeros(N, np.float32)
        sk = SuperKernel(PRODUCT, schedule_seed=seed)
        sk.add(mods("good"), "scale", 8, x, y, np.uint32(N))
        sk.add(mods("wait_after_first_read"), "shift_early", 4, y, z, np.uint32(N))
        return sk.run()
    kind, summaries = _same_for_all_seeds(make)
    assert kind == "races" and summaries == (
        "SUMMARY: ascgen: RAW race y good.cpp:33 -> wait_after_first_read.cpp:22 (consumer prologue)",)
    assert "move WaitPreTaskEnd (wait_after_first_read.cpp:24) before line 22" in make(0).races[0].format()


def test_in_place_write_before_the_wait_is_a_war_race(mods):
    def make(seed):
        x, y = _x(), np.zeros(N, np.float32)
        sk = SuperKernel(PRODUCT, schedule_seed=seed)
        sk.add(mods("good"), "scale", 8, x, y, np.uint32(N))
        sk.add(mods("war_inplace"), "bump_inplace", 4, x, np.uint32(N))
        return sk.run()
    kind, summaries = _same_for_all_seeds(make)
    assert kind == "races" and len(summaries) == 1
    assert summaries == ("SUMMARY: ascgen: WAR race x good.cpp:25 -> war_inplace.cpp:20 (consumer prologue)",)


# ---- hangs and counts --------------------------------------------------------------------------------

def test_set_missing_on_odd_cores_hangs_naming_them(mods):
    def make(seed):
        x, y, z = _x(), np.zeros(N, np.float32), np.zeros(N, np.float32)
        sk = SuperKernel(PRODUCT, schedule_seed=seed)
        sk.add(mods("set_on_even_cores"), "scale_even", 8, x, y, np.uint32(N))
        sk.add(mods("good"), "shift", 8, y, z, np.uint32(N))
        return sk.run()
    kind, text = _same_for_all_seeds(make)
    assert kind == "HangError", text
    for core in ("AIV1", "AIV3", "AIV5", "AIV7"):
        assert core in text
    assert 'finished task 0 "scale_even" without SetNextTaskStart (the call is at set_on_even_cores.cpp:35' in text


def test_set_on_last_tile_with_more_cores_than_tiles_hangs_on_the_idle_cores(mods):
    n = 6 * 256          # 6 tiles for 8 cores: AIV6 and AIV7 get none and never call the set
    def make(seed):
        x, y, z = _x(n), np.zeros(n, np.float32), np.zeros(n, np.float32)
        sk = SuperKernel(PRODUCT, schedule_seed=seed)
        sk.add(mods("set_on_last_tile"), "scale_rr", 8, x, y, np.uint32(n))
        sk.add(mods("good"), "shift", 8, y, z, np.uint32(n))
        return sk.run()
    kind, text = _same_for_all_seeds(make)
    assert kind == "HangError", text
    assert 'AIV6, AIV7: finished task 0 "scale_rr" without SetNextTaskStart' in text
    assert "AIV5" not in text.split("SUMMARY")[-1]


def test_set_in_every_iteration_is_a_count_mismatch(mods):
    def make(seed):
        x, y, z = _x(), np.zeros(N, np.float32), np.zeros(N, np.float32)
        sk = SuperKernel(PRODUCT, schedule_seed=seed)
        sk.add(mods("set_every_tile"), "scale_each", 8, x, y, np.uint32(N))
        sk.add(mods("good"), "shift", 8, y, z, np.uint32(N))
        return sk.run()
    kind, text = _same_for_all_seeds(make)
    assert kind in ("SyncCountError", "HangError"), text
    assert kind == "SyncCountError", text
    assert "set_every_tile.cpp" in text


def test_sync_all_in_a_smaller_task_hangs(mods):
    def make(seed):
        x, y, z = _x(), np.zeros(N, np.float32), np.zeros(N, np.float32)
        sk = SuperKernel(PRODUCT, schedule_seed=seed)
        sk.add(mods("good"), "scale", 8, x, y, np.uint32(N))
        sk.add(mods("syncall_small"), "scale_sync", 4, y, z, np.uint32(N))
        return sk.run()
    kind, text = _same_for_all_seeds(make)
    assert kind == "HangError", text
    assert "syncall_small.cpp" in text


def test_sync_all_twin_with_feed_sync_all_is_clean(mods):
    x, y, z = _x(), np.zeros(N, np.float32), np.zeros(N, np.float32)
    sk = SuperKernel(PRODUCT, options="early-start=1:feed-sync-all=1")
    sk.add(mods("good"), "scale", 8, x, y, np.uint32(N))
    sk.add(mods("syncall_small"), "scale_sync", 4, y, z, np.uint32(N))
    report = sk.run()
    assert report.races == []
    np.testing.assert_array_equal(z, x * 4)


# ---- clean twins -------------------------------------------------------------------------------------

def test_prefetch_of_an_independent_input_is_clean(mods):
    results = []
    def make(seed):
        x, w = _x(), (np.arange(N, dtype=np.float32) % 13)
        y, z = np.zeros(N, np.float32), np.zeros(N, np.float32)
        sk = SuperKernel(PRODUCT, schedule_seed=seed)
        sk.add(mods("good"), "scale", 8, x, y, np.uint32(N))
        sk.add(mods("good"), "prefetch_add", 4, y, w, z, np.uint32(N))
        report = sk.run()
        results.append(np.array_equal(z, x * 2 + w))
        return report
    assert _same_for_all_seeds(make) == ("races", ())
    assert all(results)


def test_fixed_producer_and_consumer_are_clean(mods):
    x, y, z = _x(), np.zeros(N, np.float32), np.zeros(N, np.float32)
    sk = SuperKernel(PRODUCT)
    sk.add(mods("good"), "scale", 8, x, y, np.uint32(N)).add(mods("good"), "shift", 4, y, z, np.uint32(N))
    assert sk.run().races == []
    np.testing.assert_array_equal(z, x * 2 + 1)


def test_aiv_aic_mix_tasks_with_correct_calls_are_clean_and_correct(mods):
    results = []
    def make(seed):
        x = _x()
        y, z, out = (np.zeros(N, np.float32) for _ in range(3))
        m = mods("mixed_types")
        sk = SuperKernel(PRODUCT, schedule_seed=seed)
        sk.add(m, "vec_scale", 8, x, y, np.uint32(N))
        sk.add(m, "cube_copy", 4, y, z, np.uint32(N))
        sk.add(m, "mix_shift", 4, z, out, np.uint32(N))
        report = sk.run()
        results.append(np.array_equal(out, x * 2 + 1))
        return report
    assert _same_for_all_seeds(make) == ("races", ())
    assert all(results)


def test_cube_task_setting_early_races_with_the_mix_task_through_the_relay(mods):
    # The MIX task's vector cores wait for their own group's cube core (relay flag 13), which sets only after
    # its whole previous task: that group's data is ordered. With the cube task on 2 of 4 cube cores, AIC0's
    # tail is read by group 1 (AIV2, AIV3) and AIC1's by groups 2 and 3 (AIV4..AIV7): six racing pairs.
    def make(seed):
        x = _x()
        y, z, out = (np.zeros(N, np.float32) for _ in range(3))
        sk = SuperKernel(PRODUCT, schedule_seed=seed)
        sk.add(mods("mixed_types"), "vec_scale", 8, x, y, np.uint32(N))
        sk.add(mods("cube_set_early"), "cube_copy_early", 2, y, z, np.uint32(N))
        sk.add(mods("mixed_types"), "mix_shift", 4, z, out, np.uint32(N))
        return sk.run()
    kind, summaries = _same_for_all_seeds(make)
    assert kind == "races" and summaries == (
        "SUMMARY: ascgen: RAW race z cube_set_early.cpp:17 -> mixed_types.cpp:71 (producer tail)",)
    race = make(0).races[0]
    assert (race.earlier.core, race.later.core, race.core_pairs) == ("AIC0", "AIV2", 6)
