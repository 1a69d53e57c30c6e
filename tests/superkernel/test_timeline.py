"""The modeled timeline of real SuperKernel runs: the one-run model of "without early start" equals a run
with early start off, the trace has a lane per core and a span per task, and prefetching pays."""
import json

import numpy as np
import pytest

from ascgen.runtime import SuperKernel, load
from tests.paths import SK_BUGS

BUGS = SK_BUGS
PRODUCT = "ascend910_93"
N = 8 * 2048


@pytest.fixture(scope="module")
def good():
    return load(BUGS / "good.cpp", product=PRODUCT)


def _run(good, options, second="shift", blocks=(8, 4)):
    x, w = np.arange(N, dtype=np.float32), np.ones(N, np.float32)
    y, z = np.zeros(N, np.float32), np.zeros(N, np.float32)
    sk = SuperKernel(PRODUCT, options=options)
    sk.add(good, "scale", blocks[0], x, y, np.uint32(N))
    if second == "shift":
        sk.add(good, "shift", blocks[1], y, z, np.uint32(N))
    else:
        sk.add(good, "prefetch_add", blocks[1], y, w, z, np.uint32(N))
    return sk.run()


@pytest.mark.parametrize("second", ["shift", "prefetch_add"])
def test_one_run_model_matches_a_run_with_early_start_off(good, second):
    on = _run(good, "early-start=1", second).timeline()
    off = _run(good, "early-start=0", second).timeline()
    assert on.without_early_start == pytest.approx(off.with_early_start)
    assert off.with_early_start == pytest.approx(off.without_early_start)


def test_prefetch_shortens_the_modeled_time(good):
    plain = _run(good, "early-start=1", "shift").timeline()
    prefetch = _run(good, "early-start=1", "prefetch_add").timeline()
    off = _run(good, "early-start=0", "prefetch_add").timeline()
    assert prefetch.with_early_start < off.with_early_start     # the prefetch overlaps the boundary wait
    assert prefetch.gain > plain.gain


def test_chrome_trace_of_a_real_run(good, tmp_path):
    report = _run(good, "early-start=1")
    data = json.loads(report.to_chrome_trace(tmp_path / "sk.json").read_text())
    ev = data["traceEvents"]
    lanes = sorted(e["args"]["name"] for e in ev if e.get("name") == "thread_name")
    assert lanes == [f"AIV{i}" for i in range(8)]
    spans = [(e["tid"], e["name"]) for e in ev if e.get("cat") == "task"]
    assert sum(1 for _, n in spans if n == 'task 0 "scale"') == 8
    assert sum(1 for _, n in spans if n == 'task 1 "shift"') == 4            # shift runs on 4 of 8 cores
    sets = [e for e in ev if e.get("name") == "SetNextTaskStart"]
    assert sets and all(e["args"]["source"].startswith("good.cpp:") for e in sets if "source" in e["args"])
    waits = [e for e in ev if e.get("name") == "WaitPreTaskEnd"]
    assert all(e["dur"] >= 0 for e in waits) and waits
    assert data["otherData"]["parameters"]["flag_round_cycles"] > 0
    assert "docs/timeline.md" in data["otherData"]["note"]


def test_no_timeline_means_no_trace(good, tmp_path):
    x, y = np.ones(N, np.float32), np.zeros(N, np.float32)
    sk = SuperKernel(PRODUCT, timeline=False).add(good, "scale", 8, x, y, np.uint32(N))
    report = sk.run()
    assert report.timeline() is None
    with pytest.raises(Exception, match="timeline=True"):
        report.to_chrome_trace(tmp_path / "x.json")


def test_a_wait_recorded_before_the_task_begins_is_not_subtracted_from_its_busy_time():
    """The SuperKernel's implicit wait comes before task_begin (the events of tests/superkernel/test_op_chain.py's
    swi_glu on AIV0): only the part of a wait inside the task's span is time the core did not work. Counting the
    whole wait gave swi_glu 0 busy cycles, and "without early start" 224 cycles too few."""
    from ascgen.runtime.report.trace import Event, busy_times
    events = [Event(0, "AIV0", 1, kind, t, "", 0) for kind, t in (
        ("wait_begin", 66.0), ("wait_end", 466.0), ("task_begin", 466.0), ("task_end", 690.0))]
    events += [Event(1, "AIV1", 1, kind, t, "", 0) for kind, t in (
        ("task_begin", 100.0), ("wait_begin", 100.0), ("wait_end", 400.0), ("task_end", 450.0))]
    assert busy_times(events) == {(0, 1): 224.0, (1, 1): 50.0}
