"""Race report text and timeline summary/trace, from synthetic core records (no compiler needed).

The report format is pinned after ThreadSanitizer's: later access first, previous access, the window,
one hint naming the line the call must move past, one SUMMARY line."""
import json

import pytest

from ascgen.errors import RaceError
from ascgen.runtime import report as rp


def _acc(task, kernel, core, line, write, window, offset, nbytes, file="/src/scale.cpp"):
    return {"task": task, "kernel": kernel, "core_label": core, "file": file, "line": line, "write": write,
            "window": window, "buffer": "y", "offset": offset, "bytes": nbytes, "dtype": "float32"}


def _tail_records():
    # Two core pairs, one range each, same lines: a set before the tail write (producer tail).
    return [
        {"earlier": _acc(0, "scale", "AIV3", 40, True, 2, 16384, 1024),
         "later": _acc(1, "shift", "AIV1", 48, False, 0, 16384, 1024, "/src/shift.cpp"),
         "call_file": "/src/scale.cpp", "call_line": 37},
        {"earlier": _acc(0, "scale", "AIV7", 40, True, 2, 34816, 1024),
         "later": _acc(1, "shift", "AIV3", 48, False, 0, 34816, 1024, "/src/shift.cpp"),
         "call_file": "/src/scale.cpp", "call_line": 37},
    ]


def test_raw_in_producer_tail_is_one_report_with_fix():
    races = rp.races_from_records(_tail_records(), ["scale", "shift"])
    assert len(races) == 1
    r = races[0]
    assert (r.kind, r.window, r.fix_line, r.core_pairs) == ("RAW", "producer tail", 40, 2)
    text = r.format("SuperKernel, early start on ascend910_93")
    assert text.splitlines() == [
        "==================",
        "WARNING: ascgen: data race between tasks (SuperKernel, early start on ascend910_93)",
        '  Read of 1024 B y[4096:4352] (float32, GM) by task 1 "shift" on AIV1:',
        "    #0 shift.cpp:48",
        '  Previous write of 1024 B y[4096:4352] by task 0 "scale" on AIV3:',
        "    #0 scale.cpp:40",
        "  The write comes after SetNextTaskStart (scale.cpp:37) on AIV3, so it may overlap task 1.",
        "  (2 core pairs race within y[4096:8960]; the first is shown.)",
        "  Hint: move SetNextTaskStart (scale.cpp:37) after line 40, the last GM access of task 0 to y "
        "(outside any loop or branch).",
        "SUMMARY: ascgen: RAW race y scale.cpp:40 -> shift.cpp:48 (producer tail)",
        "==================",
    ]


def test_war_in_consumer_prologue_points_at_first_access(tmp_path):
    src = tmp_path / "bump.cpp"
    src.write_text("\n" * 9 + "    AscendC::DataCopy(xGm[off], yl, n);\n")
    later = _acc(1, "bump", "AIV0", 10, True, 1, 0, 1024, str(src))
    later["buffer"] = "x"
    earlier = _acc(0, "scale", "AIV1", 25, False, 0, 0, 1024)
    earlier["buffer"] = "x"
    races = rp.races_from_records([{"earlier": earlier, "later": later, "call_file": str(src), "call_line": 30}],
                                  ["scale", "bump"])
    r = races[0]
    assert (r.kind, r.window, r.fix_line) == ("WAR", "consumer prologue", 10)
    text = r.format()
    assert '  Write of 1024 B x[0:256] (float32, GM) by task 1 "bump" on AIV0:' in text
    assert "    #0 AscendC::DataCopy(xGm[off], yl, n);   bump.cpp:10" in text      # the source line is shown
    assert "comes before WaitPreTaskEnd (bump.cpp:30) on AIV0" in text
    assert "Hint: move WaitPreTaskEnd (bump.cpp:30) before line 10" in text
    assert text.splitlines()[-2] == "SUMMARY: ascgen: WAR race x scale.cpp:25 -> bump.cpp:10 (consumer prologue)"


def test_waw_and_odd_dtype_range():
    e = _acc(0, "a", "AIV0", 5, True, 0, 3, 5)
    l = _acc(1, "b", "AIV1", 6, True, 0, 3, 5)
    r = rp.races_from_records([{"earlier": e, "later": l, "call_file": None, "call_line": 0}], ["a", "b"])[0]
    assert r.kind == "WAW" and r.window == "boundary" and r.fix_line is None
    assert "y[byte 3:8]" in r.format()
    assert "exactly once" in r.fix()


def test_report_raise_on_race_and_clean():
    races = rp.races_from_records(_tail_records(), ["scale", "shift"])
    bad = rp.Report(product="ascend910_93", options="early-start=1", tasks=["scale", "shift"], races=races)
    with pytest.raises(RaceError) as info:
        bad.raise_on_race()
    assert len(info.value.races) == 1 and "SUMMARY: ascgen: RAW race y" in str(info.value)
    good = rp.Report(product="ascend910_93", options="early-start=1", tasks=["scale", "shift"])
    assert good.raise_on_race() is good and good.clean


def _events():
    # Two cores, two tasks. Core 0: task 0 busy 0..1000, set at 900; task 1 begins 1000, waits 1000..1500,
    # ends 2500 (busy 1000). Core 1: task 0 busy 0..600 (set 600), task 1 600..1900 with wait 600..1500.
    ev = []
    def add(core, task, kind, t):
        ev.append({"core": core, "core_label": f"AIV{core}", "task": task, "kind": kind, "t": t,
                   "file": "/src/k.cpp", "line": 10})
    add(0, 0, 0, 0); add(0, 0, 2, 900); add(0, 0, 1, 1000)
    add(0, 1, 0, 1000); add(0, 1, 3, 1000); add(0, 1, 4, 1500); add(0, 1, 1, 2500)
    add(1, 0, 0, 0); add(1, 0, 2, 600); add(1, 0, 1, 600)
    add(1, 1, 0, 600); add(1, 1, 3, 700); add(1, 1, 4, 1500); add(1, 1, 1, 1900)
    return ev


def test_summary_models_both_from_one_run():
    r = rp.Report(product="ascend910_93", options="early-start=1", tasks=["a", "b"], events=_events(),
                  timeline_params={"flag_round_cycles": 400, "task_launch_cycles": 1000})
    s = r.timeline()
    # busy: task 0 max(1000, 600) = 1000; task 1: core 0 1500-500 = 1000, core 1 1300-800 = 500 -> 1000
    assert s.with_early_start == 2500
    assert s.without_early_start == 1000 + 1000 + 400
    assert s.separate_launches == 1000 + 1000 + 1000
    assert s.gain == pytest.approx(2400 / 2500)
    assert "gain of early start: 0.96x" in str(s)


def test_chrome_trace_lanes_spans_windows(tmp_path):
    r = rp.Report(product="ascend910_93", options="early-start=1", tasks=["a", "b"], events=_events())
    path = r.to_chrome_trace(tmp_path / "t.json")
    data = json.loads(path.read_text())
    evs = data["traceEvents"]
    lanes = {e["args"]["name"] for e in evs if e.get("name") == "thread_name"}
    assert lanes == {"AIV0", "AIV1"}
    spans = [(e["tid"], e["name"], e["ts"], e["dur"]) for e in evs if e.get("cat") == "task"]
    assert (0, 'task 1 "b"', 1.0, 1.5) in spans and len(spans) == 4
    windows = {(e["tid"], e["name"]) for e in evs if e.get("cat") == "window"}
    assert (0, "tail (may overlap task 1)") in windows and (1, "prologue (may overlap task 0)") in windows
    assert sum(1 for e in evs if e.get("name") == "SetNextTaskStart") == 2
    assert "not measured" in data["otherData"]["note"]


def test_trace_without_timeline_is_an_error(tmp_path):
    r = rp.Report(product="ascend910_93", options="", tasks=["a"])
    with pytest.raises(Exception, match="timeline=True"):
        r.to_chrome_trace(tmp_path / "x.json")
    assert r.timeline() is None


def test_trace_flows_link_the_last_set_to_each_wait(tmp_path):
    r = rp.Report(product="ascend910_93", options="early-start=1", tasks=["a", "b"], events=_events())
    evs = json.loads(r.to_chrome_trace(tmp_path / "t.json").read_text())["traceEvents"]
    starts = [e for e in evs if e.get("ph") == "s"]
    ends = [e for e in evs if e.get("ph") == "f"]
    # the round of boundary 0 -> 1 completes with core 0's set at 900 cycles; both cores' waits end after it
    assert len(starts) == len(ends) == 2
    assert all(e["tid"] == 0 and e["ts"] == 0.9 for e in starts)
    assert sorted(e["tid"] for e in ends) == [0, 1]


def test_report_to_dict_is_json_ready():
    races = rp.races_from_records(_tail_records(), ["scale", "shift"])
    r = rp.Report(product="ascend910_93", options="early-start=1", tasks=["scale", "shift"], races=races,
                  events=_events())
    d = json.loads(json.dumps(r.to_dict()))
    assert d["races"][0]["kind"] == "RAW" and d["races"][0]["later"]["buffer"] == "y"
    assert d["races"][0]["summary"].startswith("SUMMARY: ascgen: RAW race y")
    assert d["timeline"]["with_early_start"] == 2500
