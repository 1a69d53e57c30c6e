"""Cross-core flags (modes 0/1/2, overflow), SyncAll, exact hang detection, faults with site, cancel of
every core after a fault with all threads joined, the time limit, printf collection."""
import os
import re
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from ascgen.errors import (HangError, KernelAssertError, KernelMemoryError, KernelTimeoutError, SpecError,
                           SyncCountError)

from tests.core import harness as h
from tests.paths import CORE_KERNELS

SRC = CORE_KERNELS / "basic.cpp"


def line_of(marker: str, src: Path = SRC) -> int:
    for i, text in enumerate(src.read_text().splitlines(), 1):
        if marker in text:
            return i
    raise AssertionError(marker)


@pytest.fixture(scope="module")
def k():
    return h.Kernels("basic.cpp")


def os_threads() -> int:
    return len(os.listdir("/proc/self/task"))


@pytest.mark.parametrize("ktype,n_aiv", [("aiv", 8), ("mix_1_2", 8)])
@pytest.mark.parametrize("seed", [None, 3])
def test_mode0_round_orders_every_core_of_the_type(k, ktype, n_aiv, seed):
    blocks = 8 if ktype == "aiv" else 4
    data, sums = np.zeros(64, np.int64), np.zeros(64, np.int64)
    h.run([k.task("k_mode0", blocks, data, sums, 3, kernel_type=ktype)], schedule_seed=seed)
    if ktype == "aiv":
        assert (sums[:8] == sum(range(1, 9))).all()   # every core saw every write made before the set


def test_mode1_pairs_the_two_aivs_of_an_ai_core(k):
    data, seen = np.zeros(16, np.int64), np.zeros(16, np.int64)
    h.run([k.task("k_mode1", 4, data, seen, kernel_type="mix_1_2")])
    assert list(seen[:8]) == [101, 100, 103, 102, 105, 104, 107, 106]


def test_mode1_needs_a_mix_kernel(k):
    with pytest.raises(KernelAssertError, match="mode 1 needs a MIX kernel"):
        h.run([k.task("k_mode1", 4, np.zeros(16, np.int64), np.zeros(16, np.int64), kernel_type="aiv")])


def test_mode2_relays_between_an_aic_and_its_aivs(k):
    data, seen, back = np.zeros(8, np.int64), np.zeros(16, np.int64), np.zeros(8, np.int64)
    h.run([k.task("k_mode2", 3, data, seen, back, kernel_type="mix_1_2")])
    assert list(seen[:6]) == [1000, 1000, 1001, 1001, 1002, 1002]
    assert list(back[:3]) == [2000, 2002, 2004]         # the AIC waited for both of its AIVs


@pytest.mark.parametrize("times", [15, 16])
def test_counter_overflow_at_16_is_a_sync_count_error(k, times):
    if times == 15:
        h.run([k.task("k_overflow", 2, times)])          # 15 pending increments fit
        return
    with pytest.raises(SyncCountError, match="overflowed") as err:
        h.run([k.task("k_overflow", 2, times)])
    assert "flag 2" in str(err.value) and err.value.site.line == line_of("for (int i = 0; i < times; ++i) cross_core_set")


@pytest.mark.parametrize("ktype,aiv_only", [("aiv", 1), ("aiv", 0), ("mix_1_2", 0), ("mix_1_1", 0), ("mix_1_2", 1)])
def test_sync_all_is_a_barrier(k, ktype, aiv_only):
    data, sums = np.zeros(256, np.int64), np.zeros(256, np.int64)
    h.run([k.task("k_syncall", 4, data, sums, aiv_only, 1 << 30, kernel_type=ktype)], schedule_seed=1)
    n_aic, n_aiv = {"aiv": (0, 4), "mix_1_1": (4, 4), "mix_1_2": (4, 8)}[ktype]
    assert data.sum() == n_aic + n_aiv
    if aiv_only:   # each type is a barrier of its own: a core saw at least every write of its type
        assert (sums[:n_aiv] >= n_aiv).all() and (sums[128:128 + n_aic] >= n_aic).all()
    else:          # a full SyncAll: every core saw every write
        assert (sums[:n_aiv] == n_aic + n_aiv).all() and (sums[128:128 + n_aic] == n_aic + n_aiv).all()


def test_wait_never_set_is_a_hang_with_the_exact_core_and_line(k):
    before = os_threads()
    with pytest.raises(HangError) as err:     # not KernelTimeoutError: found exactly, not by the time limit
        h.run([k.task("k_wait_never_set", 8)], time_limit_s=600)
    msg = str(err.value)
    line = line_of("WAIT_NEVER_SET")
    assert err.value.site.core == "AIV0" and err.value.site.line == line
    assert f"AIV0 wait in CrossCoreWaitFlag (basic.cpp:{line}): flag 4" in msg
    assert "AIV1..AIV7: returned from kernel" in msg
    assert msg.startswith("==================\nERROR: ascgen: hang") and "\nSUMMARY: ascgen: hang flag 4" in msg
    assert os_threads() <= before   # none left behind (another test's thread may end meanwhile)


def test_sync_all_with_cores_that_returned_is_a_hang_naming_them(k):
    data, sums = np.zeros(64, np.int64), np.zeros(64, np.int64)
    with pytest.raises(HangError) as err:
        h.run([k.task("k_syncall", 8, data, sums, 1, 6)])
    msg = str(err.value)
    assert "AIV0..AIV5 wait in SyncAll" in msg and "flag 14, mode 0, round 1" in msg
    assert "Round 1 needs an arrival from all 8 AIV cores; 6 arrived. Missing:" in msg
    assert re.search(r"AIV6, AIV7: returned from kernel \"k_syncall\" after 0 sets of flag 14", msg)
    assert "missing AIV6,AIV7" in msg


def test_a_fault_on_one_core_cancels_all_and_joins_every_thread(k):
    py_before, os_before = threading.active_count(), os_threads()
    buf = np.zeros(16, np.int64)
    with pytest.raises(KernelMemoryError) as err:
        h.run([k.task("k_fault_one_core", 8, buf, 16)])
    e = err.value
    assert (e.site.core, e.site.kernel, e.site.line) == ("AIV3", "k_fault_one_core", line_of("OOB_LINE"))
    assert "GM write of 32 B at arg0+112 overflows arg0 (128 B, 16 x int64)" in str(e)
    assert "elements [16, 18) of int64" in str(e)
    assert threading.active_count() <= py_before and os_threads() <= os_before   # none left behind


def test_address_in_no_buffer(k):
    with pytest.raises(KernelMemoryError, match="which is in no buffer of this launch"):
        h.run([k.task("k_wild", 2)])


def test_kernel_cxx_exception_becomes_an_assert_error(k):
    with pytest.raises(KernelAssertError, match="boom from core 1") as err:
        h.run([k.task("k_throw", 4)])
    assert err.value.site.core == "AIV1"


def test_fail_from_the_library_keeps_kind_core_and_line(k):
    with pytest.raises(KernelAssertError) as err:
        h.run([k.task("k_fail_assert", 4)])
    assert err.value.site.core == "AIV2" and err.value.site.line == line_of("ascendc_assert failed")
    assert "ascendc_assert failed: x > 0" in str(err.value)


def test_time_limit_names_each_cores_last_line(k):
    before = os_threads()
    with pytest.raises(KernelTimeoutError) as err:   # latency is measured in benchmarks/bench_core.py
        h.run([k.task("k_forever", 4, np.zeros(4, np.int64))], time_limit_s=0.3)
    msg = str(err.value)
    assert f"AIV3: running in kernel \"k_forever\", last seen at basic.cpp:{line_of('FOREVER_LINE')}" in msg
    assert os_threads() <= before   # none left behind (another test's thread may end meanwhile)


def test_a_core_that_never_calls_the_api_is_reported_not_waited_for(k):
    before = os_threads()
    with pytest.raises(KernelTimeoutError) as err:
        h.run([k.task("k_spin_no_api", 2, 1500)], time_limit_s=0.2, cancel_grace_s=0.3)
    msg = str(err.value)
    assert "AIV0 called no ascgen API within 0.3 s of the limit" in msg and "isolated mode" in msg
    assert err.value.details["threads_left"] == 1
    deadline = time.time() + 5
    while os_threads() > before and time.time() < deadline:   # the spinning thread ends on its own
        time.sleep(0.05)
    assert os_threads() <= before   # none left behind (another test's thread may end meanwhile)


def test_printf_lines_are_prefixed_by_core_and_whole(k):
    r = h.run([k.task("k_printf", 3)])
    assert sorted(r.output.splitlines()) == [f"[AIV{i}] part hello from block {i}" for i in range(3)]


def test_runs_leave_no_threads_behind(k):
    before = os_threads()
    for _ in range(50):
        h.run([k.task("k_empty", 8)])
    assert os_threads() <= before   # none left behind (another test's thread may end meanwhile)


def test_bad_time_limit_is_a_spec_error(k):
    with pytest.raises(SpecError, match="time_limit_s"):
        h.run([k.task("k_empty", 1)], time_limit_s=0)


@pytest.mark.parametrize("which", [0, 1, 3])
def test_views_and_strided_copies_inside_the_buffer(k, which):
    h.run([k.task("k_views", 1, np.zeros(16, np.int64), which)])


@pytest.mark.parametrize("which,marker,text", [(2, "VIEW_OOB", "SetGlobalBuffer view of 72 B at arg0+64"),
                                               (4, "STRIDED_OOB",
                                                "GM write (5 blocks x 16 B, stride 32 B) of 144 B at arg0+0 overflows arg0")])
def test_views_and_strided_copies_past_the_end(k, which, marker, text):
    with pytest.raises(KernelMemoryError) as err:
        h.run([k.task("k_views", 1, np.zeros(16, np.int64), which)])
    assert text in str(err.value) and err.value.site.line == line_of(marker)


def test_counters_left_non_zero_at_the_end_are_a_count_mismatch(k):
    with pytest.raises(SyncCountError) as err:
        h.run([k.task("k_unbalanced", 4, 0)])
    msg = str(err.value)
    assert "flag 3 counter of AIV0 is 1 at the end of the run" in msg and "AIV3" in msg
    assert "SUMMARY: ascgen: sync-count flag 3 left at 1 on AIV0" in msg


def test_counters_left_by_design_are_accepted_when_the_core_says_so(k):
    # rt::allow_unconsumed_flags (the devkit backend's Matmul API client): completed rounds may remain, up to
    # the 4-bit counter; an overflow is still an error while the kernel runs.
    h.run([k.task("k_unbalanced", 4, 2)])


def test_unequal_set_counts_are_a_count_mismatch(k):
    with pytest.raises(SyncCountError) as err:
        h.run([k.task("k_unbalanced", 4, 1)])
    msg = str(err.value)
    assert f"flag 3, mode 0: round 1 was set by AIV0 but never by AIV1..AIV3 (set at basic.cpp:{line_of('UNBALANCED_SET')})" in msg


def test_mode4_pairs_an_aic_with_one_aiv_on_ascend950(k):
    data, seen, back = np.zeros(8, np.int64), np.zeros(16, np.int64), np.zeros(8, np.int64)
    h.run([k.task("k_mode4", 3, data, seen, back, kernel_type="mix_1_2")], product="ascend950")
    assert list(seen[:6]) == [500, 500, 501, 501, 502, 502] and list(back[:3]) == [1000, 1002, 1004]


def test_mode4_does_not_exist_before_ascend950(k):
    with pytest.raises(KernelAssertError, match="mode 4 exists only on Ascend 950"):
        h.run([k.task("k_mode4", 1, np.zeros(8, np.int64), np.zeros(16, np.int64), np.zeros(8, np.int64),
                      kernel_type="mix_1_2")], product="ascend910_93")


def test_task_sync_pipe_is_checked_even_in_a_plain_launch(k):
    with pytest.raises(KernelAssertError, match="AIV_PIPE 6 is not allowed") as err:
        h.run([k.task("k_bad_pipe", 1)])
    assert err.value.site.line == line_of("BAD_PIPE")


def test_cross_core_flags_do_not_exist_on_coupled_products(k):
    with pytest.raises(KernelAssertError, match="not available on ascend310p"):
        h.run([k.task("k_mode0", 2, np.zeros(8, np.int64), np.zeros(8, np.int64), 1)], product="ascend310p")


def test_interrupt_stops_every_core_and_joins_them(k):
    """What Ctrl-C does (core.run catches KeyboardInterrupt and calls the same function)."""
    from ascgen.runtime import core
    before = os_threads()
    timer = threading.Timer(0.3, core.ensure_loaded().ascgen_run_interrupt)
    timer.start()
    with pytest.raises(KernelAssertError, match="interrupted"):
        h.run([k.task("k_forever", 4, np.zeros(4, np.int64))], time_limit_s=30)
    timer.join()
    assert os_threads() <= before   # none left behind (another test's thread may end meanwhile)


def test_sk_options_may_be_given_as_a_string(k):
    from ascgen import products
    from ascgen.runtime import core
    t, bufs, keep = k.task("k_empty", 2)
    r = core.run(core.RunRequest(product=products.get("ascend910_93"), tasks=(t, t), sk_options="early-start=0"))
    assert r.geometry["aiv"] == 2
    with pytest.raises(SpecError, match="unknown SK option"):
        core.run(core.RunRequest(product=products.get("ascend910_93"), tasks=(t, t), sk_options="early=0"))
