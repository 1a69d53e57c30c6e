"""The seeded SuperKernel bugs (tests/data/sk_bugs) give the same verdict on the devkit backend as on the
builtin one: the real library's SetNextTaskStart / WaitPreTaskEnd reach the core through the task-sync
recogniser (runtime/devkit/include/ascgen_devkit/tasksync.h).

Verdicts are compared with their source locations: both backends name the user's lines (the devkit backend
finds them from the intrinsic's return addresses, docs/devkit.md "Reports"), so the SUMMARY lines must be
identical. Needs the asc-devkit tree (skips without it, fails in CI)."""
from __future__ import annotations

import re

import numpy as np
import pytest

from ascgen.errors import HangError, SyncCountError
from ascgen.runtime import SuperKernel, load
from tests import devkit_tree
from tests.paths import SK_BUGS

PRODUCT = "ascend910_93"
N = 4608
SEEDS = (0, 3)


@pytest.fixture(scope="module")
def mods():
    devkit_tree.require()
    cache = {}

    def get(name, backend):
        if (name, backend) not in cache:
            cache[name, backend] = load(SK_BUGS / f"{name}.cpp", product=PRODUCT, backend=backend)
        return cache[name, backend]
    return get


def _x():
    return (np.arange(N, dtype=np.float32) % 97) - 40.0


def _summary(text: str) -> str:
    return re.search(r"^SUMMARY: .*$", text, re.M).group(0)


def _verdict(run):
    """The kind of outcome and its SUMMARY lines, which name the cores and the user's file:line."""
    try:
        report = run()
    except HangError as exc:    # and where the blocked cores wait: "wait in WaitPreTaskEnd (good.cpp:51)"
        return "HangError", _summary(str(exc)), tuple(sorted(set(re.findall(r"wait in \w+ \([^)]*\)", str(exc)))))
    except SyncCountError as exc:    # which core calls twice first depends on the schedule
        return "SyncCountError", re.sub(r" on AI[CV]\d+", "", _summary(str(exc)))
    return "races", tuple(r.summary() for r in report.races)


SCENARIOS = {
    # name: (producer module, kernel, consumer module, kernel, consumer blocks)
    "producer_consumer_clean": ("good", "scale", "good", "shift", 4),
    "early_set": ("set_before_tail", "scale_tail", "good", "shift", 4),
    "late_wait": ("good", "scale", "wait_after_first_read", "shift_early", 4),
    "branch_skips_set": ("set_on_even_cores", "scale_even", "good", "shift", 8),
    "double_set": ("set_every_tile", "scale_each", "good", "shift", 8),
}
EXPECTED_KIND = {"producer_consumer_clean": "races", "early_set": "races", "late_wait": "races",
                 "branch_skips_set": "HangError", "double_set": "SyncCountError"}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_devkit_gives_the_builtin_verdict(mods, scenario):
    pm, pk, cm, ck, blocks = SCENARIOS[scenario]

    def make(backend, seed):
        def run():
            x, y, z = _x(), np.zeros(N, np.float32), np.zeros(N, np.float32)
            sk = SuperKernel(PRODUCT, schedule_seed=seed)
            sk.add(mods(pm, backend), pk, 8, x, y, np.uint32(N))
            sk.add(mods(cm, backend), ck, blocks, y, z, np.uint32(N))
            report = sk.run()
            if scenario == "producer_consumer_clean":
                np.testing.assert_array_equal(z, x * 2 + 1)
            return report
        return run

    verdicts = {(b, s): _verdict(make(b, s)) for b in ("builtin", "devkit") for s in SEEDS}
    builtin = verdicts["builtin", SEEDS[0]]
    assert builtin[0] == EXPECTED_KIND[scenario], builtin
    assert all(v == builtin for v in verdicts.values()), verdicts
    if scenario == "producer_consumer_clean":
        assert builtin == ("races", ())
    elif builtin[0] == "races":
        assert len(builtin[1]) == 1, builtin
    elif builtin[0] == "HangError":
        assert builtin[2] and all(re.search(r"\.cpp:\d+\)$", w) for w in builtin[2]), builtin


def test_a_superkernel_may_mix_tasks_of_both_backends(mods):
    x, y, z = _x(), np.zeros(N, np.float32), np.zeros(N, np.float32)
    sk = SuperKernel(PRODUCT)
    sk.add(mods("good", "devkit"), "scale", 8, x, y, np.uint32(N))
    sk.add(mods("good", "builtin"), "shift", 4, y, z, np.uint32(N))
    assert sk.run().races == []
    np.testing.assert_array_equal(z, x * 2 + 1)
