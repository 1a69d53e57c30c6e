"""The modeled timeline of a SuperKernel run as an SVG picture: one lane per core, time to the right.

Each task's body on a core is a bar in the task's colour; the part of it spent blocked in WaitPreTaskEnd
is drawn pale; a set is a dark tick at its time, the end of a wait a triangle. Where a task starts on
some core before the previous task has ended on every core (the early-start overlap) a band spans the
lanes. A race outlines both sides' bars in red and joins them with a red line, its SUMMARY as the title.
Pure text out (xml-escaped), no dependency: Report.timeline_svg() returns it, notebooks show it.
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from ascgen.runtime.report.trace import Event, event_from_record

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#bab0ac")
RACE = "#d62728"
LANE, GAP, LEFT, TOP, WIDTH = 18, 4, 64, 40, 720


def _attrs(**kw) -> str:
    return " ".join(f'{k.rstrip("_").replace("_", "-")}="{escape(str(v), {chr(34): "&quot;"})}"' for k, v in kw.items())


def _el(tag: str, text: str = "", **kw) -> str:
    return f"<{tag} {_attrs(**kw)}>{escape(text)}</{tag}>" if text else f"<{tag} {_attrs(**kw)}/>"


def spans(events: list[Event]) -> dict[tuple[int, int], tuple[float, float]]:
    """(core, task) -> (begin, end) in modeled cycles."""
    out: dict[tuple[int, int], list[float]] = {}
    for e in events:
        if e.kind in ("task_begin", "task_end"):
            span = out.setdefault((e.core, e.task), [e.t, e.t])
            span[0], span[1] = min(span[0], e.t), max(span[1], e.t)
    return {k: (a, b) for k, (a, b) in out.items()}


def overlaps(span: dict[tuple[int, int], tuple[float, float]], ntasks: int) -> list[tuple[int, float, float]]:
    """(task k, from, to): task k + 1 already runs on some core while task k still runs on another."""
    out = []
    for k in range(ntasks - 1):
        ends = [b for (c, t), (a, b) in span.items() if t == k]
        begins = [a for (c, t), (a, b) in span.items() if t == k + 1]
        if ends and begins and min(begins) < max(ends):
            out.append((k, min(begins), max(ends)))
    return out


def render(report) -> str:
    """The SVG document of `report` (an ascgen.runtime.report.Report)."""
    events = [e if isinstance(e, Event) else event_from_record(e) for e in report.events]
    lanes = {e.core: e.core_label for e in events}
    rows = {core: i for i, core in enumerate(sorted(lanes))}
    span = spans(events)
    t_end = max((e.t for e in events), default=0.0) or 1.0
    x = lambda t: LEFT + WIDTH * t / t_end  # noqa: E731 - cycles to pixels
    y = lambda core: TOP + rows[core] * (LANE + GAP)  # noqa: E731
    height = TOP + len(rows) * (LANE + GAP) + 40 + 16 * len(report.tasks)
    width = LEFT + WIDTH + 20
    title = f"SuperKernel on {report.product} ({report.options or 'default options'}): {len(report.tasks)} tasks, " \
            f"{len(report.races)} race(s)"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           _el("title", title), _el("rect", x=0, y=0, width=width, height=height, fill="white"),
           _el("text", title, x=LEFT, y=16, font_size=13, font_weight="bold")]
    bottom = TOP + len(rows) * (LANE + GAP)
    for core, row in rows.items():
        out.append(_el("text", lanes[core], x=LEFT - 6, y=y(core) + LANE - 5, text_anchor="end"))
    for (core, task), (a, b) in sorted(span.items()):
        colour = PALETTE[task % len(PALETTE)] if task >= 0 else "#999"
        out.append(_el("rect", x=f"{x(a):.1f}", y=y(core), width=f"{max(1.0, x(b) - x(a)):.1f}", height=LANE,
                       fill=colour, class_="task", data_task=task, data_core=lanes[core]))
    for k, a, b in overlaps(span, len(report.tasks)):
        out.append(_el("rect", x=f"{x(a):.1f}", y=TOP - 6, width=f"{max(1.0, x(b) - x(a)):.1f}", height=bottom - TOP + 6,
                       fill="#ffd700", fill_opacity=0.25, stroke="#c9a400", stroke_dasharray="3,2", class_="overlap",
                       data_task=k))
        out.append(_el("text", f"early start {k}->{k + 1}", x=f"{x(a) + 2:.1f}", y=TOP - 8, font_size=9, fill="#8a6d00"))
    waiting: dict[tuple[int, int], float] = {}
    for e in sorted(events, key=lambda e: e.t):
        where = f"{e.file.rsplit('/', 1)[-1]}:{e.line}" if e.file else ""
        if e.kind == "wait_begin":
            waiting[(e.core, e.task)] = e.t
        elif e.kind == "wait_end" and (e.core, e.task) in waiting:
            a = waiting.pop((e.core, e.task))
            out.append(_el("rect", x=f"{x(a):.1f}", y=y(e.core) + 3, width=f"{max(0.5, x(e.t) - x(a)):.1f}",
                           height=LANE - 6, fill="white", fill_opacity=0.6, class_="wait"))
            px, py = x(e.t), y(e.core)
            out.append(f'<polygon class="wait-mark" points="{px:.1f},{py} {px - 4:.1f},{py + LANE} {px + 4:.1f},{py + LANE}" '
                       f'fill="#222"><title>{escape("WaitPreTaskEnd returns " + where)}</title></polygon>')
        elif e.kind == "set":
            out.append(f'<line class="set-mark" x1="{x(e.t):.1f}" x2="{x(e.t):.1f}" y1="{y(e.core) - 2}" '
                       f'y2="{y(e.core) + LANE + 2}" stroke="#000" stroke-width="2">'
                       f'<title>{escape("SetNextTaskStart " + where)}</title></line>')
    by_label = {label: core for core, label in lanes.items()}
    for race in report.races:
        ends = []
        for side in (race.earlier, race.later):
            lane = by_label.get(side.core)
            if lane is None or (lane, side.task) not in span:
                continue
            a, b = span[(lane, side.task)]
            out.append(_el("rect", x=f"{x(a):.1f}", y=y(lane), width=f"{max(1.0, x(b) - x(a)):.1f}", height=LANE,
                           fill="none", stroke=RACE, stroke_width=3, class_="race"))
            ends.append((x((a + b) / 2), y(lane) + LANE / 2))
        if len(ends) == 2:
            out.append(f'<line class="race" x1="{ends[0][0]:.1f}" y1="{ends[0][1]:.1f}" x2="{ends[1][0]:.1f}" '
                       f'y2="{ends[1][1]:.1f}" stroke="{RACE}" stroke-width="2"><title>{escape(race.summary())}</title></line>')
    out.append(_el("line", x1=LEFT, x2=LEFT + WIDTH, y1=bottom + 4, y2=bottom + 4, stroke="#444"))
    out.append(_el("text", "0", x=LEFT, y=bottom + 16))
    out.append(_el("text", f"{t_end:,.0f} modeled cycles", x=LEFT + WIDTH, y=bottom + 16, text_anchor="end"))
    key = "| SetNextTaskStart \u00b7 \u25b2 WaitPreTaskEnd returns \u00b7 pale: blocked in the wait \u00b7 yellow band: early-start overlap" \
          + (" \u00b7 red: a race" if report.races else "")
    out.append(_el("text", key, x=LEFT, y=bottom + 30 + 16 * len(report.tasks), font_size=10, fill="#444"))
    for k, name in enumerate(report.tasks):
        yy = bottom + 30 + 16 * k
        out.append(_el("rect", x=LEFT, y=yy - 9, width=10, height=10, fill=PALETTE[k % len(PALETTE)]))
        races = sum(k in (r.earlier.task, r.later.task) for r in report.races)
        label = f'task {k} "{name}"' + (f": in {races} race(s)" if races else "")
        out.append(_el("text", label, x=LEFT + 16, y=yy, fill=RACE if races else "#000"))
    out.append("</svg>")
    return "\n".join(out)
