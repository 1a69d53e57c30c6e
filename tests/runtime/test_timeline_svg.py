"""Report.timeline_svg() (issue 21 point 9), read back with xml.etree: one lane per core, one bar per
core and task, the set and wait marks, the early-start overlap, races outlined in red. A hand-made Report
(no run): every number of the picture is known."""
import xml.etree.ElementTree as ET

from ascgen.runtime.report import Access, Race, Report
from ascgen.runtime.report.trace import Event

NS = {"s": "http://www.w3.org/2000/svg"}


def _report(races=()):
    def ev(core, task, kind, t):
        return Event(core=core, core_label=f"AIV{core}", task=task, kind=kind, t=t, file="k.cpp", line=7)
    events = [ev(0, 0, "task_begin", 0), ev(0, 0, "set", 90), ev(0, 0, "task_end", 100),
              ev(1, 0, "task_begin", 0), ev(1, 0, "set", 30), ev(1, 0, "task_end", 40),
              ev(1, 1, "task_begin", 40), ev(1, 1, "wait_begin", 40), ev(1, 1, "wait_end", 100),
              ev(1, 1, "task_end", 200), ev(0, 1, "task_begin", 100), ev(0, 1, "wait_begin", 100),
              ev(0, 1, "wait_end", 100), ev(0, 1, "task_end", 180)]
    return Report(product="ascend910_93", options="early-start=1", tasks=["scale", "shift"], events=events,
                  races=list(races))


def _race():
    side = dict(file="k.cpp", line=20, window=2, buffer="y", offset=0, nbytes=64, dtype="float32")
    return Race(earlier=Access(task=0, kernel="scale", core="AIV0", write=True, **side),
                later=Access(task=1, kernel="shift", core="AIV1", write=False, **side), call_file="k.cpp", call_line=9)


def _svg(report):
    return ET.fromstring(report.timeline_svg())


def _by_class(root, tag, cls):
    return [e for e in root.iter(f"{{{NS['s']}}}{tag}") if e.get("class") == cls]


def test_lanes_bars_marks_and_the_overlap():
    root = _svg(_report())
    assert root.tag == f"{{{NS['s']}}}svg"
    texts = [t.text for t in root.iter(f"{{{NS['s']}}}text")]
    assert "AIV0" in texts and "AIV1" in texts and 'task 1 "shift"' in texts
    bars = _by_class(root, "rect", "task")
    assert sorted((b.get("data-core"), b.get("data-task")) for b in bars) == \
        [("AIV0", "0"), ("AIV0", "1"), ("AIV1", "0"), ("AIV1", "1")]
    assert len(_by_class(root, "line", "set-mark")) == 2 and len(_by_class(root, "polygon", "wait-mark")) == 2
    assert len(_by_class(root, "rect", "wait")) == 2
    # task 1 starts on AIV1 at 40 while task 0 runs on AIV0 until 100: that stretch is the overlap band
    (band,) = _by_class(root, "rect", "overlap")
    scale = 720 / 200
    assert abs(float(band.get("x")) - (64 + 40 * scale)) < 0.2 and abs(float(band.get("width")) - 60 * scale) < 0.2
    assert not _by_class(root, "rect", "race")


def test_a_race_is_outlined_in_red_on_both_sides():
    report = _report([_race()])
    root = _svg(report)
    outlines = _by_class(root, "rect", "race")
    assert len(outlines) == 2 and all(r.get("stroke") == "#d62728" for r in outlines)
    (link,) = _by_class(root, "line", "race")
    assert link.find("s:title", NS).text == report.races[0].summary()
    assert report._repr_svg_() == report.timeline_svg() and "<svg" in report._repr_html_()


def test_names_are_escaped():
    report = _report()
    report.tasks = ["a<b>&\"c"] + report.tasks[1:]
    ET.fromstring(report.timeline_svg())           # parses: the kernel name cannot break the document
