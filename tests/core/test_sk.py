"""SuperKernel execution in the core: boundaries for all nine transitions with and without the calls,
the complement logic (idle cores, unused core type), count mismatches, hangs naming the missing cores,
early-start 0/1/2, debug-sync-all, feed-sync-all, stream-fusion, compile-only products and lints."""

import numpy as np
import pytest

from ascgen.errors import HangError, SyncCountError

from tests.core import harness as h
from tests.paths import CORE_KERNELS

SRC = CORE_KERNELS / "sk.cpp"
CALL_WAIT, CALL_SET, SKIP_SET_HIGH, SET_TWICE, SKIP_WAIT_BAD, SYNC_ALL, OVERLAP, SET_EARLY = 1, 2, 4, 8, 16, 32, 64, 128
SYNC_ALL_FULL = 256
AIC_SLOT, AIV_SLOT = 0, 64


def line_of(marker: str) -> int:
    return next(i for i, t in enumerate(SRC.read_text().splitlines(), 1) if marker in t)


@pytest.fixture(scope="module")
def k():
    return h.Kernels("sk.cpp")


def active_slots(ktype: str, b: int) -> list[int]:
    aic = {"aiv": 0, "aic": b, "mix_1_1": b, "mix_1_2": b}[ktype]
    aiv = {"aiv": b, "aic": 0, "mix_1_1": b, "mix_1_2": 2 * b}[ktype]
    return [AIC_SLOT + i for i in range(aic)] + [AIV_SLOT + i for i in range(aiv)]


def sk(k, specs, options="early-start=1", mode=CALL_WAIT | CALL_SET, bad=1 << 30, modes=None, **kw):
    """Run tasks (kernel_type, block_dim); returns (buf, obs, result)."""
    n = len(specs)
    buf, obs = np.zeros((n, 128), np.int64), np.full((n, 128), -1, np.int64)
    tasks = []
    for i, (ktype, b) in enumerate(specs):
        m = modes[i] if modes else mode
        tasks.append(k.task("k_task", b, buf, obs, i, m, bad, kernel_type=ktype,
                            uses_wait=bool(m & CALL_WAIT), uses_set=bool(m & CALL_SET)))
    return buf, obs, h.run(tasks, options=options, **kw)


def check_ordered(specs, buf, obs):
    """Every core of task k saw every write of task k-1 (the boundary ordered them)."""
    for i, (ktype, b) in enumerate(specs):
        slots = active_slots(ktype, b)
        assert sorted(np.flatnonzero(buf[i])) == slots, f"task {i} ran on the wrong cores"
        if i:
            expected = len(active_slots(*specs[i - 1]))
            assert (obs[i, slots] == expected).all(), f"task {i} saw {obs[i, slots]} of {expected} writes"


TYPES = ["aic", "aiv", "mix_1_2"]


@pytest.mark.parametrize("prev", TYPES)
@pytest.mark.parametrize("cur", TYPES)
@pytest.mark.parametrize("calls", ["own", "implicit"])
def test_boundary_orders_all_nine_transitions(k, prev, cur, calls):
    # Different block dims so some cores are idle in each task and take part through the complement.
    specs = [(prev, 3), (cur, 2), (prev, 4)]
    mode = CALL_WAIT | CALL_SET if calls == "own" else 0
    buf, obs, r = sk(k, specs, mode=mode, schedule_seed=7)
    check_ordered(specs, buf, obs)
    rules = {l["rule"] for l in r.lints}
    assert rules == ({"sk-first-task-wait", "sk-last-task-set"} if calls == "own" else set())


@pytest.mark.parametrize("product", ["ascend910_93", "ascend950"])
def test_mixed_1_1_superkernel(k, product):
    specs = [("aic", 4), ("mix_1_1", 3), ("aiv", 4)]
    buf, obs, r = sk(k, specs, product=product)
    assert r.geometry["kind"] == "mix_1_1"
    check_ordered(specs, buf, obs)


def test_early_start_overlaps_adjacent_tasks(k):
    """Task 0's AIV tail (after its set) waits for task 1's AIC prologue (before its wait): only a split
    barrier lets both run; a full barrier cannot (the twins below)."""
    specs = [("aiv", 4), ("aic", 2)]
    buf, obs, _ = sk(k, specs, mode=CALL_WAIT | CALL_SET | OVERLAP)
    check_ordered(specs, buf, obs)


@pytest.mark.parametrize("options,rule", [("early-start=0", "sk-early-start-off"),
                                          ("stream-fusion=1", "sk-early-start-off"),
                                          ("early-start=2", "sk-early-start-2"),
                                          ("early-start=1:debug-sync-all=1", None)])
def test_without_overlap_the_overlap_kernel_hangs(k, options, rule):
    with pytest.raises(HangError) as err:
        sk(k, [("aiv", 4), ("aic", 2)], options=options, mode=CALL_WAIT | CALL_SET | OVERLAP)
    assert f"sk.cpp:{line_of('TAIL_LINE')}" in str(err.value)
    if rule:
        assert rule in {l["rule"] for l in err.value.details["lints"]}


@pytest.mark.parametrize("options", ["early-start=0", "early-start=2", "early-start=1:debug-sync-all=1",
                                     "stream-fusion=1"])
def test_every_option_still_orders_the_tasks(k, options):
    specs = [("aiv", 3), ("mix_1_2", 2), ("aic", 3)]
    buf, obs, _ = sk(k, specs, options=options)
    check_ordered(specs, buf, obs)


def test_compile_only_product_behaves_as_full_barrier_and_says_so(k):
    with pytest.raises(HangError) as err:
        sk(k, [("aiv", 4), ("aic", 2)], product="ascend910b", mode=CALL_WAIT | CALL_SET | OVERLAP)
    assert "tasksync-compile-only" in {l["rule"] for l in err.value.details["lints"]}


def test_treat_as_effective_makes_ascend910b_behave_like_a3(k):
    specs = [("aiv", 4), ("aic", 2)]
    buf, obs, r = sk(k, specs, product="ascend910b", mode=CALL_WAIT | CALL_SET | OVERLAP, treat_as_effective=True)
    check_ordered(specs, buf, obs)
    assert "tasksync-compile-only" not in {l["rule"] for l in r.lints}


def test_calls_in_a_plain_launch_are_no_ops_and_not_lints(k):
    buf, obs = np.zeros((1, 128), np.int64), np.zeros((1, 128), np.int64)
    r = h.run([k.task("k_task", 4, buf, obs, 0, CALL_WAIT | CALL_SET, 1 << 30, uses_wait=True, uses_set=True)])
    assert r.lints == [] and buf[0, 64:68].tolist() == [1] * 4


def test_missing_set_on_some_cores_is_a_hang_naming_them(k):
    with pytest.raises(HangError) as err:
        sk(k, [("aiv", 8), ("aiv", 8)], mode=CALL_WAIT | CALL_SET | SKIP_SET_HIGH, bad=6, schedule_seed=2)
    msg, set_line, wait_line = str(err.value), line_of("SET_LINE"), line_of("WAIT_LINE")
    assert 'hang at the boundary task 0 "k_task" -> task 1 "k_task"' in msg
    assert f"AIV0..AIV5 wait in WaitPreTaskEnd (sk.cpp:{wait_line}): flag 14, mode 0, round 1" in msg
    assert "Round 1 needs an arrival from all 8 AIV cores; 6 arrived. Missing:" in msg
    assert f'AIV6, AIV7: finished task 0 "k_task" without SetNextTaskStart (the call is at sk.cpp:{set_line}, not reached on these cores)' \
        in msg
    assert "Hint: call SetNextTaskStart exactly once on every core" in msg
    assert msg.rstrip("=\n").endswith(f"SUMMARY: ascgen: hang flag 14 round 1 missing AIV6,AIV7 (sk.cpp:{set_line})")


def test_missing_set_on_an_idle_heavy_task_hangs_only_on_active_cores(k):
    """The SK sets for idle cores (index >= B_k); an active core that skips its own call still hangs."""
    with pytest.raises(HangError) as err:
        sk(k, [("aiv", 3), ("aiv", 8)], mode=CALL_WAIT | CALL_SET | SKIP_SET_HIGH, bad=2)
    assert "Missing:\n    AIV2: finished task 0" in str(err.value)


def test_set_called_twice_is_a_count_mismatch(k):
    with pytest.raises(SyncCountError) as err:
        sk(k, [("aiv", 4), ("aiv", 4)], mode=CALL_WAIT | CALL_SET | SET_TWICE)
    line = line_of("SET_TWICE) set_next")
    assert "SetNextTaskStart called twice in task 0" in str(err.value) and err.value.site.line == line
    assert err.value.site.task == 0


def test_wait_skipped_on_an_active_core_is_a_count_mismatch(k):
    with pytest.raises(SyncCountError) as err:
        sk(k, [("aiv", 4), ("aiv", 4)], mode=CALL_WAIT | CALL_SET | SKIP_WAIT_BAD, bad=2)
    e = err.value
    assert e.site.core == "AIV2" and e.site.task == 1 and "without calling WaitPreTaskEnd" in str(e)


def test_sync_all_in_a_task_narrower_than_the_sk_hangs_without_feed(k):
    modes = [CALL_WAIT | CALL_SET | SYNC_ALL, CALL_WAIT | CALL_SET]
    with pytest.raises(HangError) as err:
        sk(k, [("aiv", 2), ("aiv", 4)], modes=modes)
    assert "feed-sync-all=1" in str(err.value)


def test_feed_sync_all_lets_idle_cores_take_part(k):
    modes = [CALL_WAIT | CALL_SET | SYNC_ALL, CALL_WAIT | CALL_SET | SYNC_ALL, CALL_WAIT | CALL_SET]
    specs = [("aiv", 2), ("aiv", 3), ("aiv", 4)]
    buf, obs, _ = sk(k, specs, modes=modes, options="early-start=1:feed-sync-all=1", schedule_seed=5)
    check_ordered(specs, buf, obs)


@pytest.mark.parametrize("feed", [0, 1])
def test_full_sync_all_in_a_narrow_mix_task(k, feed):
    """SyncAll<false> in a MIX task on 1 of 3 AI Cores: idle AICs and AIVs feed it, or it hangs."""
    modes = [CALL_WAIT | CALL_SET | SYNC_ALL_FULL, CALL_WAIT | CALL_SET]
    specs = [("mix_1_2", 1), ("mix_1_2", 3)]
    if not feed:
        with pytest.raises(HangError, match="feed-sync-all=1"):
            sk(k, specs, modes=modes)
        return
    buf, obs, _ = sk(k, specs, modes=modes, options="feed-sync-all=1", schedule_seed=4)
    check_ordered(specs, buf, obs)


def test_feed_only_complements_tasks_whose_source_uses_sync_all(k):
    """The SK compiler adds the complement only for sub-kernels that call SyncAll (textually); a task
    registered without it gets no feeding cores, so its SyncAll on a narrow task still hangs."""
    buf, obs = np.zeros((2, 128), np.int64), np.full((2, 128), -1, np.int64)
    m0, m1 = CALL_WAIT | CALL_SET | SYNC_ALL, CALL_WAIT | CALL_SET
    tasks = [k.task("k_task", 2, buf, obs, 0, m0, 1 << 30, uses_wait=True, uses_set=True, uses_sync_all=False),
             k.task("k_task", 4, buf, obs, 1, m1, 1 << 30, uses_wait=True, uses_set=True, uses_sync_all=False)]
    with pytest.raises(HangError):
        h.run(tasks, options="feed-sync-all=1")


def test_sync_all_on_every_core_needs_no_feed(k):
    specs = [("aiv", 4), ("aiv", 4)]
    buf, obs, _ = sk(k, specs, mode=CALL_WAIT | CALL_SET | SYNC_ALL)
    check_ordered(specs, buf, obs)


def test_debug_core_counts_add_idle_cores(k):
    specs = [("aiv", 2), ("aic", 2)]
    buf, obs, r = sk(k, specs, options="debug-aic-num=5:debug-aiv-num=10")
    assert (r.geometry["aic"], r.geometry["aiv"]) == (5, 10)
    check_ordered(specs, buf, obs)


@pytest.mark.parametrize("seed", range(4))
def test_verdicts_do_not_depend_on_the_schedule(k, seed):
    with pytest.raises(HangError) as err:
        sk(k, [("aiv", 8), ("aiv", 8)], mode=CALL_WAIT | CALL_SET | SKIP_SET_HIGH, bad=6, schedule_seed=seed)
    assert "missing AIV6,AIV7" in str(err.value)


def test_single_task_superkernel_compiles_out_both_calls(k):
    specs = [("aiv", 4)]
    buf, obs, r = sk(k, specs)
    assert {l["rule"] for l in r.lints} == {"sk-first-task-wait", "sk-last-task-set"}
    assert all(l["file"].endswith("sk.cpp") and l["severity"] == "note" for l in r.lints)


def test_race_records_reach_python_with_buffer_and_window(k):
    """A set before the task's last GM write: the race detector (hb.cpp) reports it, and the core fills in
    the buffer name, offset and the producer-tail window. Its twin (set after the write) is clean."""
    modes = [CALL_WAIT | CALL_SET | SET_EARLY, CALL_WAIT | CALL_SET]
    _, _, r = sk(k, [("aiv", 4), ("aiv", 4)], modes=modes, detect_races=True)
    assert r.races, "no race found"
    race = r.races[0]
    e, l = race["earlier"], race["later"]
    assert (e["task"], l["task"], e["write"], l["write"]) == (0, 1, True, False)
    assert e["line"] == line_of("WRITE_LINE") and e["window"] == 2 and e["buffer"] == "arg0"
    assert e["core_label"].startswith("AIV") and e["dtype"] == "int64" and e["offset"] >= 64 * 8
    assert race["call_line"] == line_of("SET_BEFORE_WRITE")
    _, _, clean = sk(k, [("aiv", 4), ("aiv", 4)], detect_races=True)
    assert clean.races == []


def test_timeline_events_reach_python(k):
    _, _, r = sk(k, [("aiv", 2), ("aic", 2)], timeline=True)
    kinds = {e["kind"] for e in r.events}
    assert {"task_begin", "task_end", "set", "wait_begin", "wait_end"} <= kinds
    assert r.timeline_params["flag_round_cycles"] > 0
    assert all(e["core_label"] in r.geometry["labels"] for e in r.events)
